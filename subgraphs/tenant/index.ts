import { migration } from '../../platform/orm';
import { createHealthResolver } from '../common/health.resolver';
import type { SubgraphDefinition } from '../../platform/subgraph-definition';
import { ApiKey } from './entities/api-key.entity';
import { Asset } from './entities/asset.entity';
import { Location } from './entities/location.entity';
import { Patient } from './entities/patient.entity';
import { Provider } from './entities/provider.entity';
import { Tenant } from './entities/tenant.entity';
import { WebhookConfig } from './entities/webhook-config.entity';
import { Migration20261122000000_init } from './migrations/Migration20261122000000_init';
import { Migration20261201000000_profile_assets_webhooks } from './migrations/Migration20261201000000_profile_assets_webhooks';
import { Migration20261201000100_directory } from './migrations/Migration20261201000100_directory';
import { Migration20261203000000_directory_views } from './migrations/Migration20261203000000_directory_views';
import { Migration20261204000000_webhook_deliveries } from './migrations/Migration20261204000000_webhook_deliveries';
import { Migration20261210000000_delivery_jobs } from './migrations/Migration20261210000000_delivery_jobs';
import { Migration20261215000000_bounded_logos } from './migrations/Migration20261215000000_bounded_logos';
import { Migration20261220000400_webhook_endpoint_health } from './migrations/Migration20261220000400_webhook_endpoint_health';
import { Migration20261227000000_scoped_keys } from './migrations/Migration20261227000000_scoped_keys';
import { Migration20261227030000_people_sessions } from './migrations/Migration20261227030000_people_sessions';
import { Migration20261227040000_allowed_origins } from './migrations/Migration20261227040000_allowed_origins';
import { Migration20261227060000_totp_replay } from './migrations/Migration20261227060000_totp_replay';
import { Migration20261228000000_time_zone_directory } from './migrations/Migration20261228000000_time_zone_directory';
import { Migration20261227050000_single_sign_on } from './migrations/Migration20261227050000_single_sign_on';
import { Migration20261229000000_test_mode } from './migrations/Migration20261229000000_test_mode';
import { User } from './entities/user.entity';
import { Invitation } from './entities/invitation.entity';
import { Session } from './entities/session.entity';
import { OidcLogin } from './entities/oidc-login.entity';
import { UserResolver } from './resolvers/user.resolver';
import { outboxMigration } from '../common/outbox/outbox.migration';
import { WebhookDeliveryResolver } from './resolvers/webhook-delivery.resolver';
import { ApiKeyResolver } from './resolvers/api-key.resolver';
import { AuditEventResolver } from './resolvers/audit-event.resolver';
import { resolveLocationReference, resolvePatientReference, resolveProviderReference } from './resolvers/directory.reference';
import { LocationResolver } from './resolvers/location.resolver';
import { PatientResolver } from './resolvers/patient.resolver';
import { ProviderResolver } from './resolvers/provider.resolver';
import { TenantLogoResolver } from './resolvers/tenant-logo.resolver';
import { resolveTenantReference } from './resolvers/tenant.reference';
import { TenantResolver } from './resolvers/tenant.resolver';
import { WebhookConfigResolver } from './resolvers/webhook-config.resolver';
import { seedTenantDemo } from './seeder';
import { WEBHOOK_QUEUES } from './webhooks/queues';
import { configureTenant, type TenantDeps } from './tenant-deps';
import { readTenantSubgraphSettings, type TenantSubgraphSettings } from './subgraph-settings';

/** The tenant subgraph: tenants, API keys, settings, logos, webhook configuration and the practice directory (docs/decisions.md, Data ownership). */
export const tenantSubgraph: SubgraphDefinition<TenantSubgraphSettings | null, TenantDeps> = {
  name: 'tenant',
  schema: 'tenant',
  entities: [Tenant, ApiKey, Asset, WebhookConfig, Location, Provider, Patient, User, Invitation, Session, OidcLogin],
  migrations: [
    migration('Migration20261122000000_init', Migration20261122000000_init),
    migration('Migration20261201000000_profile_assets_webhooks', Migration20261201000000_profile_assets_webhooks),
    migration('Migration20261201000100_directory', Migration20261201000100_directory),
    migration('Migration20261203000000_directory_views', Migration20261203000000_directory_views),
    migration('Migration20261204000000_webhook_deliveries', Migration20261204000000_webhook_deliveries),
    migration('Migration20261204000100_outbox', outboxMigration('tenant')),
    migration('Migration20261210000000_delivery_jobs', Migration20261210000000_delivery_jobs),
    migration('Migration20261215000000_bounded_logos', Migration20261215000000_bounded_logos),
    migration('Migration20261220000400_webhook_endpoint_health', Migration20261220000400_webhook_endpoint_health),
    migration('Migration20261227000000_scoped_keys', Migration20261227000000_scoped_keys),
    migration('Migration20261227030000_people_sessions', Migration20261227030000_people_sessions),
    migration('Migration20261227040000_allowed_origins', Migration20261227040000_allowed_origins),
    migration('Migration20261227050000_single_sign_on', Migration20261227050000_single_sign_on),
    migration('Migration20261227060000_totp_replay', Migration20261227060000_totp_replay),
    migration('Migration20261228000000_time_zone_directory', Migration20261228000000_time_zone_directory),
    migration('Migration20261229000000_test_mode', Migration20261229000000_test_mode),
  ],
  resolvers: [
    TenantResolver,
    TenantLogoResolver,
    WebhookConfigResolver,
    WebhookDeliveryResolver,
    ApiKeyResolver,
    UserResolver,
    AuditEventResolver,
    LocationResolver,
    ProviderResolver,
    PatientResolver,
    createHealthResolver('tenant'),
  ],
  referenceResolvers: {
    Tenant: { __resolveReference: resolveTenantReference },
    Location: { __resolveReference: resolveLocationReference },
    Provider: { __resolveReference: resolveProviderReference },
    Patient: { __resolveReference: resolvePatientReference },
  },
  seedDemo: seedTenantDemo,
  jobQueues: WEBHOOK_QUEUES,
  // WEBHOOK_* and ALLOW_HTTP_WEBHOOKS: how this subgraph validates endpoints and its workers deliver.
  readSettings: readTenantSubgraphSettings,
  configure: configureTenant,
  fairQueues: (deps) => [deps.decodes],
};

// The tenant subgraph's public face beyond its definition: what the edge and the operator's tools use.
export { TenantAccess, type OperatorPeople, type TenantSummary } from './tenant-access';
export { csrfTokenOf, type SessionLifetimes, type SessionPrincipal, type StartedSession } from './services/session.service';
export type { SignInOrigin, SignInResult } from './services/sign-in.service';
export type { PendingSingleSignOn, SingleSignOnResult, SingleSignOnSettings } from './services/single-sign-on.service';
export { API_KEY_REVOKED_CHANNEL, OPERATOR_CLI, type ApiKeySummary, type IssuedKey, type KeyChangeOrigin, type KeyLimits, type KeyPrincipal } from './services/api-key.service';
export type { AssetContent } from './repositories/asset.repository';
export type { AuditEventFilter, AuditEventRecord } from './repositories/audit-event.repository';
export type { AuditExportOrigin } from './services/audit-event.service';
export { startWebhookWorkers } from './webhooks/start';
// The public-only lookup webhooks connect through, for the edge's requests to tenants' identity providers too.
export { publicOnlyLookup, refusedAddress } from './webhooks/safe-lookup';
export { readWebhookQueue } from './webhooks/queue-stats';
export type { DeliveryHooks } from './webhooks/deliver';
export { readWebhookSettings, type WebhookSettings } from './webhooks/settings';
export type { TenantSubgraphSettings } from './subgraph-settings';
export type { TenantDeps } from './tenant-deps';
