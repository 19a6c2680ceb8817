import 'reflect-metadata';
import { runSubgraphService } from '../../platform/run-subgraph-service';
import { notesSubgraph } from '.';

// Runs the notes subgraph alone over HTTP (distributed mode); default port 4004. Its suggestion
// provider follows this process's LLM_* settings, read by the service's config loader.
runSubgraphService(notesSubgraph, 4004);
