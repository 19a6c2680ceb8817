import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import type { TenantScope } from '../../../platform/tenant-scope';
import { valueError } from '../../../schema/errors';
import { TenantService } from './tenant.service';

/** At most this many allowed origins per tenant. */
const MAX_ORIGINS = 20;

/** A web origin as browsers send it: https with a host (and a port), or http on the loopback for development. */
const ORIGIN = /^(https:\/\/[a-z0-9.-]{1,253}(:\d{1,5})?|http:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?)$/;

/** A tenant's sign-in rules (docs/access.md): a second factor required or not, and the web origins its people's pages may call from. Each change is audited. */
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
}
