import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, valueError } from '../../../schema/errors';
import { FULL_ACCESS, isScope, type Grants, type Scope } from '../../../schema/scopes';
import type { Actor } from '../../../schema/actor';
import { recordChange } from '../../../platform/audit/request-audit';
import { ApiKeyRepository } from '../repositories/api-key.repository';
import { TenantRepository } from '../repositories/tenant.repository';
import { TestTwinService } from './test-twin.service';

/**
 * Prefixes that make a leaked key recognisable to secret scanners and its kind to people (as
 * Stripe's `sk_`/`rk_`): a full key, every key issued before scopes, or a restricted one.
 */
const KEY_PREFIX = { full: 'hpp_', restricted: 'hpr_' } as const;

/**
 * What follows the kind's prefix on a test key (`hpp_test_`, `hpr_test_`, as Stripe's
 * `sk_test_`); a live key has nothing there, so every key issued before test mode is live and
 * reads as it always did (docs/api.md, Test mode).
 */
const TEST_MARK = 'test_';

/** A key's kind, shown by its prefix. */
export type KeyKind = keyof typeof KEY_PREFIX;

/** The PostgreSQL NOTIFY channel a revocation is announced on (payload: the key's id), for every process caching verified keys. */
export const API_KEY_REVOKED_CHANNEL = 'hpp_api_key_revoked';

/** A verified key: who is calling. */
export interface KeyPrincipal {
  keyId: string;
  tenantId: string;
  /** FULL_ACCESS for a full key, its own scopes for a restricted one. */
  scopes: Grants;
  /** When it stops working (epoch ms), or null. */
  expiresAt: number | null;
  /** False for a test key, whose `tenantId` is the test twin's (docs/api.md, Test mode). */
  livemode: boolean;
  /** The live tenant a request names in its TENANT header: `tenantId` for a live key, the twin's live tenant for a test key. */
  liveTenantId: string;
}

/** What a new key may be limited to. */
export interface KeyLimits {
  /** The scopes of a restricted key (at least one); absent or null for a full key. */
  scopes?: readonly string[] | null;
  /** When the key stops working; must be in the future. */
  expiresAt?: Date | null;
  /** False: a test key, of the tenant's test twin (made on its first test key); absent or true: a live key. */
  livemode?: boolean | null;
}

/** Who asks for a key to be issued or revoked, for its audit record: the operator, through `/admin` (with the request) or the CLI. */
export interface KeyChangeOrigin {
  actor: Actor;
  requestId: string | null;
  clientAddress: string | null;
}

/** The operator at the CLI, when no request is known. */
export const OPERATOR_CLI: KeyChangeOrigin = { actor: { kind: 'operator', id: 'cli' }, requestId: null, clientAddress: null };

/** A newly issued key; `apiKey` is shown once and never stored. */
export interface IssuedKey {
  id: string;
  /** The tenant the key's requests name in their TENANT header: the live tenant, for a test key too. */
  tenantId: string;
  apiKey: string;
  livemode: boolean;
  /** The tenant whose rows the key reads and writes: the test twin's id for a test key, else `tenantId`. */
  dataTenantId: string;
}

/** Public facts about a key, for listing. */
export interface ApiKeySummary {
  id: string;
  name: string | null;
  prefix: string;
  kind: KeyKind;
  /** False for a test key. */
  livemode: boolean;
  /** Null for a full key. */
  scopes: string[] | null;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** Splits `hpp_<lookupId>_<secret>` (or `hpr_`, either with `test_` after the prefix); null when the text cannot be one of our keys. */
function parseKey(apiKey: string): { kind: KeyKind; livemode: boolean; lookupId: string; secret: string } | null {
  const match = /^hp([pr])_(test_)?([A-Za-z0-9]{16})_([A-Za-z0-9_-]{43})$/.exec(apiKey);
  return match ? { kind: match[1] === 'p' ? 'full' : 'restricted', livemode: match[2] === undefined, lookupId: match[3], secret: match[4] } : null;
}

/** The scopes and expiry a new key gets, checked: known scopes, at least one, each once; an expiry to come. Throws a 422 located at `loc`'s fields. */
export function checkKeyLimits(limits: KeyLimits, loc: (string | number)[] = []): { scopes: Scope[] | null; expiresAt: Date | null } {
  const { scopes = null, expiresAt = null } = limits;
  if (scopes !== null) {
    if (scopes.length === 0) throw valueError([...loc, 'scopes'], 'a restricted key needs at least one scope; leave scopes out for a full key', scopes);
    const unknown = scopes.find((scope) => !isScope(scope));
    if (unknown !== undefined) throw valueError([...loc, 'scopes'], `unknown scope "${unknown}" (docs/access.md lists them)`, scopes);
  }
  if (expiresAt !== null && Number.isNaN(expiresAt.getTime())) throw valueError([...loc, 'expiresAt'], 'the expiry must be an ISO 8601 date-time', null);
  if (expiresAt !== null && expiresAt.getTime() <= Date.now()) throw valueError([...loc, 'expiresAt'], 'the expiry must be in the future', expiresAt.toISOString());
  return { scopes: scopes === null ? null : [...new Set(scopes as Scope[])], expiresAt };
}

/** A stored key's kind: restricted when it has scopes. */
export function keyKind(key: { scopes: string[] | null }): KeyKind {
  return key.scopes === null ? 'full' : 'restricted';
}

/** The public start of a stored key, enough to recognise it: its kind's prefix, `test_` for a test key, and its lookup id. */
export function keyPrefix(key: { scopes: string[] | null; lookupId: string }, livemode: boolean): string {
  return `${KEY_PREFIX[keyKind(key)]}${livemode ? '' : TEST_MARK}${key.lookupId}`;
}

/** The grant a stored key carries. */
function grantsOf(scopes: string[] | null): Grants {
  return scopes === null ? FULL_ACCESS : new Set(scopes.filter(isScope));
}

/** Issues, verifies, lists and revokes API keys. Every method works across tenants: callers are the edge and the operator. */
export class ApiKeyService {
  constructor(private readonly em: EntityManager) {}

  /**
   * Creates a key for an existing tenant: a full one, or one restricted to `limits.scopes`; `limits`
   * are checked (checkKeyLimits). A test key (`limits.livemode` false) belongs to the tenant's test
   * twin, made with it on the first one; a live key for a twin is refused (422).
   */
  async issue(tenantId: string, name: string | null = null, limits: KeyLimits = {}, by: KeyChangeOrigin = OPERATOR_CLI): Promise<IssuedKey> {
    const { scopes, expiresAt } = checkKeyLimits(limits);
    const livemode = limits.livemode !== false;
    const lookupId = randomBytes(12).toString('base64url').replace(/[-_]/g, '').padEnd(16, '0').slice(0, 16);
    const secret = randomBytes(32).toString('base64url');
    // The key (and a first test key's twin) and their audit records commit together (docs/audit.md).
    const { key, liveTenantId } = await this.em.transactional(async (em) => {
      const mode = await TenantRepository.modeUnscoped(em, tenantId);
      if (!mode) throw new NotFoundError('Tenant not found');
      const { id } = mode;
      if (livemode && mode.liveTenantId !== null) throw valueError(['livemode'], 'this tenant is a test twin: it has test keys only; issue a live key for its live tenant', true);
      const owner = livemode ? id : (await new TestTwinService(em).twinOf(id, by)).id;
      const created = await ApiKeyRepository.createUnscoped(em, { tenantId: owner, lookupId, secretHash: sha256(secret), name, scopes, expiresAt });
      await recordChange(em, { tenantId: owner, ...by }, 'api_key.issue', 'api_key', [created.id]);
      return { key: created, liveTenantId: mode.liveTenantId ?? id };
    });
    return { id: key.id, tenantId: liveTenantId, apiKey: `${keyPrefix({ scopes, lookupId }, livemode)}_${secret}`, livemode, dataTenantId: key.tenantId };
  }

  /** Returns the key's principal, or null for a malformed, unknown or revoked key. */
  async verify(apiKey: string): Promise<KeyPrincipal | null> {
    const parts = parseKey(apiKey);
    if (!parts) return null;
    const key = await ApiKeyRepository.findByLookupIdUnscoped(this.em, parts.lookupId);
    if (!key || key.revokedAt) return null;
    // Compare hashes in constant time so response timing reveals nothing about the secret.
    if (!timingSafeEqual(sha256(parts.secret), Buffer.from(key.secretHash))) return null;
    // A full key's prefix on a restricted key's row (or the reverse) is not a key we issued.
    if (parts.kind !== keyKind(key)) return null;
    const mode = await TenantRepository.modeUnscoped(this.em, key.tenantId);
    if (!mode) return null;
    // Nor is a live key's text on a test twin's key, or the reverse: the prefix always tells the mode.
    if (parts.livemode !== (mode.liveTenantId === null)) return null;
    return { keyId: key.id, tenantId: key.tenantId, scopes: grantsOf(key.scopes), expiresAt: key.expiresAt?.getTime() ?? null, livemode: parts.livemode, liveTenantId: mode.liveTenantId ?? key.tenantId };
  }

  /**
   * Marks a key revoked and announces it on API_KEY_REVOKED_CHANNEL in the same transaction, so
   * every server (another replica, or one running while the CLI revokes) hears of it on commit.
   * Unknown ids are 404; revoking twice announces again, which does no harm.
   */
  async revoke(keyId: string, by: KeyChangeOrigin = OPERATOR_CLI): Promise<void> {
    await this.em.transactional(async (em) => {
      const key = await ApiKeyRepository.findByIdUnscoped(em, keyId);
      if (!key) throw new NotFoundError('API key not found');
      key.revokedAt ??= new Date();
      await ApiKeyRepository.saveRevocationUnscoped(em, key, API_KEY_REVOKED_CHANNEL);
      await recordChange(em, { tenantId: key.tenantId, ...by }, 'api_key.revoke', 'api_key', [key.id]);
    });
  }

  /** The tenant's keys, live and test (its twin's), newest first, without secrets; an unknown tenant (of any shape) is 404. */
  async list(tenantId: string): Promise<ApiKeySummary[]> {
    const mode = await TenantRepository.modeUnscoped(this.em, tenantId);
    if (!mode) throw new NotFoundError('Tenant not found');
    const live = mode.liveTenantId ?? mode.id;
    const keys = await ApiKeyRepository.listOfTenantsUnscoped(this.em, await new TestTwinService(this.em).withTwin(live));
    return keys.map((k) => {
      const livemode = k.tenantId === live;
      return {
        id: k.id,
        name: k.name,
        prefix: keyPrefix(k, livemode),
        kind: keyKind(k),
        livemode,
        scopes: k.scopes,
        createdAt: k.createdAt.toISOString(),
        expiresAt: k.expiresAt?.toISOString() ?? null,
        revokedAt: k.revokedAt?.toISOString() ?? null,
      };
    });
  }
}
