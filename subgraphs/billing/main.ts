import 'reflect-metadata';
import { runSubgraphService } from '../shared/run-subgraph-service';
import { billingSubgraph } from '.';

// Runs the billing subgraph alone over HTTP (distributed mode); default port 4002.
runSubgraphService(billingSubgraph, 4002);
