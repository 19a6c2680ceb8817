import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError } from '../../../schema/errors';
import { ApiKeyRepository } from '../repositories/api-key.repository';
import { TenantRepository } from '../repositories/tenant.repository';

/** Prefix that makes a leaked key recognisable to secret scanners. */
const KEY_PREFIX = 'hpp_';

/** The PostgreSQL NOTIFY channel a revocation is announced on (payload: the key's id), for every process caching verified keys. */
export const API_KEY_REVOKED_CHANNEL = 'hpp_api_key_revoked';

/** A verified key: who is calling. */
export interface KeyPrincipal {
  keyId: string;
  tenantId: string;
}

/** A newly issued key; `apiKey` is shown once and never stored. */
export interface IssuedKey {
  id: string;
  tenantId: string;
  apiKey: string;
}

/** Public facts about a key, for listing. */
export interface ApiKeySummary {
  id: string;
  name: string | null;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** Splits `hpp_<lookupId>_<secret>`; null when the text cannot be one of our keys. */
function parseKey(apiKey: string): { lookupId: string; secret: string } | null {
  const match = /^hpp_([A-Za-z0-9]{16})_([A-Za-z0-9_-]{43})$/.exec(apiKey);
  return match ? { lookupId: match[1], secret: match[2] } : null;
}

/** Issues, verifies, lists and revokes API keys. Every method works across tenants: callers are the edge and the operator. */
export class ApiKeyService {
  constructor(private readonly em: EntityManager) {}

  /** Creates a key for an existing tenant. */
  async issue(tenantId: string, name: string | null = null): Promise<IssuedKey> {
    if (!(await TenantRepository.existsUnscoped(this.em, tenantId))) throw new NotFoundError('Tenant not found');
    const lookupId = randomBytes(12).toString('base64url').replace(/[-_]/g, '').padEnd(16, '0').slice(0, 16);
    const secret = randomBytes(32).toString('base64url');
    const key = await ApiKeyRepository.createUnscoped(this.em, { tenantId, lookupId, secretHash: sha256(secret), name });
    return { id: key.id, tenantId, apiKey: `${KEY_PREFIX}${lookupId}_${secret}` };
  }

  /** Returns the key's principal, or null for a malformed, unknown or revoked key. */
  async verify(apiKey: string): Promise<KeyPrincipal | null> {
    const parts = parseKey(apiKey);
    if (!parts) return null;
    const key = await ApiKeyRepository.findByLookupIdUnscoped(this.em, parts.lookupId);
    if (!key || key.revokedAt) return null;
    // Compare hashes in constant time so response timing reveals nothing about the secret.
    if (!timingSafeEqual(sha256(parts.secret), Buffer.from(key.secretHash))) return null;
    return { keyId: key.id, tenantId: key.tenantId };
  }

  /**
   * Marks a key revoked and announces it on API_KEY_REVOKED_CHANNEL in the same transaction, so
   * every server (another replica, or one running while the CLI revokes) hears of it on commit.
   * Unknown ids are 404; revoking twice announces again, which does no harm.
   */
  async revoke(keyId: string): Promise<void> {
    await this.em.transactional(async (em) => {
      const key = await ApiKeyRepository.findByIdUnscoped(em, keyId);
      if (!key) throw new NotFoundError('API key not found');
      key.revokedAt ??= new Date();
      await ApiKeyRepository.saveRevocationUnscoped(em, key, API_KEY_REVOKED_CHANNEL);
    });
  }

  /** The tenant's keys, newest first, without secrets; an unknown tenant (of any shape) is 404. */
  async list(tenantId: string): Promise<ApiKeySummary[]> {
    if (!(await TenantRepository.existsUnscoped(this.em, tenantId))) throw new NotFoundError('Tenant not found');
    const keys = await ApiKeyRepository.listOfTenantUnscoped(this.em, tenantId);
    return keys.map((k) => ({
      id: k.id,
      name: k.name,
      prefix: `${KEY_PREFIX}${k.lookupId}`,
      createdAt: k.createdAt.toISOString(),
      revokedAt: k.revokedAt?.toISOString() ?? null,
    }));
  }
}
