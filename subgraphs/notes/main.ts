import 'reflect-metadata';
import { runSubgraphService } from '../shared/run-subgraph-service';
import { notesSubgraph } from '.';

// Runs the notes subgraph alone over HTTP (distributed mode); default port 4004.
runSubgraphService(notesSubgraph, 4004);
