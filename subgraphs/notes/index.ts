import { createHealthResolver } from '../shared/health.resolver';
import type { SubgraphDefinition } from '../shared/subgraph-definition';
import { StreamProbeResolver } from './resolvers/stream-probe.resolver';

/** The notes subgraph (DESIGN.md section 6); its domain arrives with its own issue. */
export const notesSubgraph: SubgraphDefinition = {
  name: 'notes',
  schema: 'notes',
  entities: [],
  migrations: [],
  resolvers: [createHealthResolver('notes'), StreamProbeResolver],
};
