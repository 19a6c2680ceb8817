import { migration } from '../shared/orm';
import { createHealthResolver } from '../shared/health.resolver';
import type { SubgraphDefinition } from '../shared/subgraph-definition';
import { ApiKey } from './entities/api-key.entity';
import { Tenant } from './entities/tenant.entity';
import { Migration20261122000000_init } from './migrations/Migration20261122000000_init';
import { ApiKeyResolver } from './resolvers/api-key.resolver';
import { resolveTenantReference } from './resolvers/tenant.reference';
import { TenantResolver } from './resolvers/tenant.resolver';
import { seedTenantDemo } from './seeder';

/** The tenant subgraph: tenants, API keys, settings (DESIGN.md section 6). */
export const tenantSubgraph: SubgraphDefinition = {
  name: 'tenant',
  schema: 'tenant',
  entities: [Tenant, ApiKey],
  migrations: [migration('Migration20261122000000_init', Migration20261122000000_init)],
  resolvers: [TenantResolver, ApiKeyResolver, createHealthResolver('tenant')],
  referenceResolvers: { Tenant: { __resolveReference: resolveTenantReference } },
  seedDemo: seedTenantDemo,
};
