import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import type { TenantScope } from '../../../platform/tenant-scope';
import { valueError } from '../../../schema/errors';
import { TenantService } from './tenant.service';

/** At most this many allowed origins per tenant. */
const MAX_ORIGINS = 20;

/** A web origin as browsers send it: https with a host (and a port), or http on the loopback for development. */
const ORIGIN = /^(https:\/\/[a-z0-9.-]{1,253}(:\d{1,5})?|http:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?)$/;

/** At most this long: an issuer URL, a client id or secret. */
const MAX_SSO_TEXT = 1000;

/**
 * Why the text cannot be an OpenID Connect issuer, or null when it can: https (or http on the
 * loopback, for development and tests), no credentials, query or fragment (OpenID Connect
 * Discovery 1.0, section 2).
 */
export function issuerProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'an issuer is an absolute https URL';
  }
  const loopback = url.hostname === 'localhost' || url.hostname === '127.0.0.1';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) return 'an issuer uses https (http only on localhost or 127.0.0.1, for development)';
  if (url.username || url.password || url.search || url.hash || text.includes('?') || text.includes('#')) return 'an issuer has no credentials, query or fragment';
  return null;
}

/** A tenant's sign-in rules (docs/access.md): a second factor required or not, the web origins its people's pages may call from, single sign-on. Each change is audited. */
export class SignInRulesService {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope, private readonly audit: RequestAudit) {}

  /** Whether the tenant's people must sign in with a second factor; those without one may then only enrol it. */
  async setTwoFactorRequired(required: boolean): Promise<boolean> {
    await this.em.transactional(async (tx) => {
      const tenant = await new TenantService(tx).load(this.scope);
      tenant.twoFactorRequired = required;
      await this.audit.change(tx, required ? 'tenant.require_two_factor' : 'tenant.allow_one_factor', 'tenant', [this.scope.tenantId]);
    });
    return required;
  }

  /** Replaces the web origins whose pages may call the API with a person's bearer session; answers them as kept (lower-cased, each once). */
  async setAllowedOrigins(origins: readonly string[]): Promise<string[]> {
    if (origins.length > MAX_ORIGINS) throw valueError(['origins'], `at most ${MAX_ORIGINS} origins`, null);
    const kept = [...new Set(origins.map((origin) => origin.trim().toLowerCase()))];
    const bad = kept.findIndex((origin) => !ORIGIN.test(origin));
    if (bad !== -1) throw valueError(['origins', bad], 'an origin is https://host[:port] (or http://localhost[:port] for development), with no path', kept[bad]);
    await this.em.transactional(async (tx) => {
      const tenant = await new TenantService(tx).load(this.scope);
      tenant.allowedOrigins = kept;
      await this.audit.change(tx, 'tenant.set_allowed_origins', 'tenant', [this.scope.tenantId]);
    });
    return kept;
  }

  /**
   * Lets the tenant's people sign in through an OpenID Connect provider (docs/access.md, Single
   * sign-on): its issuer, and this service's client id and secret there. The secret is kept and
   * never shown again; the provider is first asked for at the next sign-in.
   */
  async configureSingleSignOn(issuer: string, clientId: string, clientSecret: string): Promise<boolean> {
    const fields = { issuer: issuer.trim(), clientId: clientId.trim(), clientSecret };
    for (const name of ['issuer', 'clientId', 'clientSecret'] as const) {
      if (!fields[name] || fields[name].length > MAX_SSO_TEXT) throw valueError(['input', name], `between 1 and ${MAX_SSO_TEXT} characters`, null);
    }
    const problem = issuerProblem(fields.issuer);
    if (problem) throw valueError(['input', 'issuer'], problem, fields.issuer);
    await this.em.transactional(async (tx) => {
      const tenant = await new TenantService(tx).load(this.scope);
      Object.assign(tenant, { oidcIssuer: fields.issuer, oidcClientId: fields.clientId, oidcClientSecret: fields.clientSecret });
      await this.audit.change(tx, 'tenant.configure_sso', 'tenant', [this.scope.tenantId]);
    });
    return true;
  }

  /** Turns single sign-on off: the provider and the client's secret are forgotten; people sign in with their passwords. */
  async disableSingleSignOn(): Promise<boolean> {
    await this.em.transactional(async (tx) => {
      const tenant = await new TenantService(tx).load(this.scope);
      Object.assign(tenant, { oidcIssuer: null, oidcClientId: null, oidcClientSecret: null });
      await this.audit.change(tx, 'tenant.disable_sso', 'tenant', [this.scope.tenantId]);
    });
    return true;
  }
}
