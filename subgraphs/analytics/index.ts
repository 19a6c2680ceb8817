import { createHealthResolver } from '../shared/health.resolver';
import type { SubgraphDefinition } from '../shared/subgraph-definition';

/** The analytics subgraph (DESIGN.md section 6); its domain arrives with its own issue. */
export const analyticsSubgraph: SubgraphDefinition = {
  name: 'analytics',
  schema: 'analytics',
  entities: [],
  migrations: [],
  resolvers: [createHealthResolver('analytics')],
};
