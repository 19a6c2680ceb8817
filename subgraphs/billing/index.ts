import { createHealthResolver } from '../shared/health.resolver';
import type { SubgraphDefinition } from '../shared/subgraph-definition';

/** The billing subgraph (DESIGN.md section 6); its domain arrives with its own issue. */
export const billingSubgraph: SubgraphDefinition = {
  name: 'billing',
  schema: 'billing',
  entities: [],
  migrations: [],
  resolvers: [createHealthResolver('billing')],
};
