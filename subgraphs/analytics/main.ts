import 'reflect-metadata';
import { runSubgraphService } from '../../platform/run-subgraph-service';
import { analyticsSubgraph } from '.';

// Runs the analytics subgraph alone over HTTP (distributed mode); default port 4003.
runSubgraphService(analyticsSubgraph, 4003);
