import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Tenant } from './entities/tenant.entity';
import { AssetRepository, type AssetContent } from './repositories/asset.repository';
import { TenantRepository } from './repositories/tenant.repository';
import { ApiKeyService, OPERATOR_CLI, type ApiKeySummary, type IssuedKey, type KeyChangeOrigin, type KeyLimits, type KeyPrincipal } from './services/api-key.service';
import { recordChange } from '../../platform/audit/request-audit';
import type { ChainVerdict } from '../../platform/audit/audit-chain';
import { ConflictError, NotFoundError } from '../../schema/errors';
import { TenantScope } from '../../platform/tenant-scope';
import { SortDirection } from '../common/pagination';
import { AuditEventRepository, type AuditEventFilter, type AuditEventRecord } from './repositories/audit-event.repository';
import { AuditEventService, type AuditExportOrigin } from './services/audit-event.service';
import type { User } from './entities/user.entity';
import { PeopleService } from './services/people.service';
import { toUserView, type UserType } from './types/user.type';
import { RequestAudit } from '../../platform/audit/request-audit';

/** What the operator's tools may do with a tenant's people (TenantAccess.people). */
export interface OperatorPeople {
  invite(email: string, name: string | null, role: string): Promise<{ user: UserType; invitationToken: string; expiresAt: string }>;
  /** The first hundred, by e-mail. */
  list(): Promise<UserType[]>;
  changeRole(userId: string, role: string): Promise<UserType>;
  remove(userId: string): Promise<UserType>;
}
import { TwoFactorService, type TwoFactorSetup } from './services/two-factor.service';
import { SessionService, type SessionLifetimes, type SessionPrincipal, type StartedSession } from './services/session.service';
import { SignInService, type SignInOrigin, type SignInResult } from './services/sign-in.service';
import { SingleSignOnService, type PendingSingleSignOn, type SingleSignOnResult, type SingleSignOnSettings } from './services/single-sign-on.service';
import { TenantService } from './services/tenant.service';

/** A tenant as the operator sees it on creation. */
export interface TenantSummary {
  id: string;
  name: string;
  timezone: string;
  createdAt: string;
}

/**
 * What the platform outside the tenant subgraph may do with tenants, keys and assets: the edge's
 * authentication, the operator's control plane (docs/decisions.md, Tenancy) and the public logo
 * route. One entity manager fork per call; nothing here is scoped to a request's tenant, because
 * these act before there is one (verifying a key) or for the operator, save the audit export,
 * which the edge streams itself (a GraphQL answer is one JSON document) for the tenant it
 * authenticated.
 */
export class TenantAccess {
  constructor(private readonly orm: MikroORM) {}

  /** The key's principal; null for unknown, revoked or malformed keys. */
  verifyKey(apiKey: string): Promise<KeyPrincipal | null> {
    return new ApiKeyService(this.em()).verify(apiKey);
  }

  /** Creates a tenant and its first key in one transaction. */
  createTenantWithKey(name: string, by: KeyChangeOrigin = OPERATOR_CLI): Promise<{ tenant: TenantSummary; apiKey: string }> {
    return this.em().transactional(async (em) => {
      const tenant = await new TenantService(em).create(name);
      await recordChange(em, { tenantId: tenant.id, ...by }, 'tenant.create', 'tenant', [tenant.id]);
      const key = await new ApiKeyService(em).issue(tenant.id, 'initial', {}, by);
      return { tenant: summarize(tenant), apiKey: key.apiKey };
    });
  }

  /** Issues another key for a tenant, full or restricted by `limits`; unknown tenant -> NotFoundError, bad limits -> ValidationError. */
  issueKey(tenantId: string, name: string | null = null, limits: KeyLimits = {}, by: KeyChangeOrigin = OPERATOR_CLI): Promise<IssuedKey> {
    return new ApiKeyService(this.em()).issue(tenantId, name, limits, by);
  }

  /** Revokes a key and announces it on API_KEY_REVOKED_CHANNEL; unknown key -> NotFoundError. */
  revokeKey(keyId: string, by: KeyChangeOrigin = OPERATOR_CLI): Promise<void> {
    return new ApiKeyService(this.em()).revoke(keyId, by);
  }

  /** The tenant's keys without secrets. */
  listKeys(tenantId: string): Promise<ApiKeySummary[]> {
    return new ApiKeyService(this.em()).list(tenantId);
  }

  /** Walks the tenant's audit chain and reports every break (platform/audit/audit-chain.ts); an unknown tenant is 404. */
  async verifyAudit(tenantId: string): Promise<ChainVerdict> {
    const em = this.em();
    if (!(await TenantRepository.existsUnscoped(em, tenantId))) throw new NotFoundError('Tenant not found');
    return new AuditEventRepository(em, TenantScope.ofStoredRow(tenantId)).verifyChain();
  }

  /**
   * Starts an export of an authenticated request's tenant's audit trail (its `audit:read` checked
   * by the caller): a bad filter is a 422; else the export's own `audit.export` record is written
   * and the matching records up to it follow in pages, read as they are asked for
   * (AuditEventService.startExport).
   */
  exportAuditEvents(tenantId: string, filter: AuditEventFilter, direction: 'asc' | 'desc', by: AuditExportOrigin): Promise<AsyncGenerator<AuditEventRecord[]>> {
    return new AuditEventService(this.em(), TenantScope.ofRequest({ tenantId })).startExport(filter, direction === 'asc' ? SortDirection.ASC : SortDirection.DESC, by);
  }

  /** Checks a person's credentials in a tenant and records the attempt (docs/access.md, Signing in). */
  signIn(tenantId: string, email: string, password: string, code: string | null, origin: SignInOrigin): Promise<SignInResult> {
    return new SignInService(this.em()).signIn(tenantId, email, password, code, origin);
  }

  /** Sets an invited person's password; an unknown or expired token is 404, a weak password 422. */
  async acceptInvitation(token: string, password: string, origin: SignInOrigin): Promise<{ userId: string; tenantId: string }> {
    const user = await new SignInService(this.em()).acceptInvitation(token, password, origin);
    return { userId: user.id, tenantId: user.tenantId };
  }

  /** Starts a session for a person who just signed in. */
  startSession(user: User, lifetimes: SessionLifetimes): Promise<StartedSession> {
    return new SessionService(this.em(), lifetimes).start(user);
  }

  /** The live session a cookie's token names, or null (docs/access.md, Sessions); read from the database on every request, so an ended session is refused at once everywhere. */
  resolveSession(token: string, lifetimes: SessionLifetimes): Promise<SessionPrincipal | null> {
    return new SessionService(this.em(), lifetimes).resolve(token);
  }

  /** Ends the session a cookie's token names (signing out). */
  endSession(token: string, lifetimes: SessionLifetimes, origin: SignInOrigin): Promise<void> {
    return new SessionService(this.em(), lifetimes).end(token, origin);
  }

  /** A tenant's OpenID Connect provider, with the client's secret, or null when it has none (docs/access.md, Single sign-on). */
  singleSignOnSettings(tenantId: string): Promise<SingleSignOnSettings | null> {
    return new SingleSignOnService(this.em()).settings(tenantId);
  }

  /** Keeps a single sign-on just sent to the tenant's provider until it comes back (its state hashed). */
  beginSingleSignOn(tenantId: string, state: string, codeVerifier: string, nonce: string): Promise<void> {
    return new SingleSignOnService(this.em()).begin(tenantId, state, codeVerifier, nonce);
  }

  /** Takes back the single sign-on this state names, once; null when unknown, used or expired. */
  takeSingleSignOn(state: string): Promise<PendingSingleSignOn | null> {
    return new SingleSignOnService(this.em()).take(state);
  }

  /** The tenant's person with the e-mail its provider vouched for (an invited one made active), the sign-in recorded. */
  completeSingleSignOn(tenantId: string, email: string, origin: SignInOrigin): Promise<SingleSignOnResult> {
    return new SingleSignOnService(this.em()).complete(tenantId, email, origin);
  }

  /** Records a single sign-on that came back refused or failed a check. */
  refuseSingleSignOn(tenantId: string, origin: SignInOrigin): Promise<void> {
    return new SingleSignOnService(this.em()).refuse(tenantId, origin);
  }

  /** The operator's hand on a tenant's people (the CLI): invite, list, change a role, remove, as the graph's mutations do, audited as the operator. */
  people(tenantId: string, by: KeyChangeOrigin = OPERATOR_CLI): OperatorPeople {
    const em = this.em();
    const scope = TenantScope.ofStoredRow(tenantId);
    // Under the tenant guard, as a request's entity manager is.
    scope.guard(em);
    const service = new PeopleService(em, scope, new RequestAudit({ tenantId, ...by }, null), by.actor);
    const view = (user: User) => toUserView(user);
    return {
      invite: async (email, name, role) => {
        const mode = await TenantRepository.modeUnscoped(em, tenantId);
        if (!mode) throw new NotFoundError('Tenant not found');
        // People sign in to the live tenant and reach its test data with a test key; a twin has no people of its own.
        if (mode.liveTenantId) throw new ConflictError(`Tenant ${tenantId} is the test twin of ${mode.liveTenantId}: invite people to the live tenant`);
        const invited = await service.invite(email, name, role);
        return { user: view(invited.user), invitationToken: invited.invitationToken, expiresAt: invited.expiresAt.toISOString() };
      },
      list: async () => (await service.list({ limit: 100, backward: false, after: null, before: null, offset: 0, offsetEnd: null })).rows.map(view),
      changeRole: async (userId, role) => view(await service.changeRole(userId, role)),
      remove: async (userId) => view(await service.remove(userId)),
    };
  }

  /** Whether any tenant lets pages of this web origin call the API (a browser's preflight). */
  anyAllowsOrigin(origin: string): Promise<boolean> {
    return TenantRepository.anyAllowsOriginUnscoped(this.em(), origin);
  }

  /** Whether this tenant lets pages of this web origin call the API with a person's bearer session. */
  allowsOrigin(tenantId: string, origin: string): Promise<boolean> {
    return TenantRepository.allowsOriginUnscoped(this.em(), tenantId, origin);
  }

  /** A fresh TOTP secret for a signed-in person to enrol (nothing stored until confirmed). */
  twoFactorSetup(userId: string): Promise<TwoFactorSetup> {
    return new TwoFactorService(this.em()).setup(userId);
  }

  /** Keeps a person's TOTP secret once a code from it is confirmed; a wrong code is 422. */
  twoFactorConfirm(userId: string, secret: string, code: string, origin: SignInOrigin): Promise<void> {
    return new TwoFactorService(this.em()).confirm(userId, secret, code, origin);
  }

  /** How many tenants exist (the first start creates a demo tenant only on an empty database). */
  countTenants(): Promise<number> {
    return TenantRepository.countUnscoped(this.em());
  }

  /** An uploaded logo by id, for the public asset route; null when there is none. */
  publicAsset(id: string): Promise<AssetContent | null> {
    return AssetRepository.findPublicUnscoped(this.em(), id);
  }

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }
}

function summarize(tenant: Tenant): TenantSummary {
  return { id: tenant.id, name: tenant.name, timezone: tenant.timezone, createdAt: tenant.createdAt.toISOString() };
}
