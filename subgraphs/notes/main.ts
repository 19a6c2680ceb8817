import 'reflect-metadata';
import pino from 'pino';
import { runSubgraphService } from '../shared/run-subgraph-service';
import { configureSuggestions } from './providers/configure';
import { readLlmSettings } from './providers/llm-settings';
import { notesSubgraph } from '.';
import { loggableError } from '../shared/loggable-error';

// Runs the notes subgraph alone over HTTP (distributed mode); default port 4004. The suggestion
// provider is this process's to choose: the LLM_* variables are read here, not by the gateway.
const { settings, problems } = readLlmSettings(process.env);
if (problems.length) {
  console.error(`The notes subgraph cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
const log = pino({ base: { service: 'notes' }, level: process.env.LOG_LEVEL ?? 'info', timestamp: pino.stdTimeFunctions.isoTime, serializers: { err: loggableError } });
configureSuggestions({
  llm: settings,
  log: (failure) => log.warn(failure, 'question migration failed'),
});
runSubgraphService(notesSubgraph, 4004);
