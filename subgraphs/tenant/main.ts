import 'reflect-metadata';
import { runSubgraphService } from '../../platform/run-subgraph-service';
import { tenantSubgraph } from '.';

// Runs the tenant subgraph alone over HTTP (distributed mode); default port 4001.
runSubgraphService(tenantSubgraph, 4001);
