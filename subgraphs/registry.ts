import { analyticsSubgraph } from './analytics';
import { billingSubgraph } from './billing';
import { notesSubgraph } from './notes';
import type { SubgraphDefinition } from '../platform/subgraph-definition';
import { tenantSubgraph } from './tenant';

/** Every subgraph of the platform, in composition order. */
export const SUBGRAPHS: readonly SubgraphDefinition[] = [tenantSubgraph, billingSubgraph, analyticsSubgraph, notesSubgraph];
