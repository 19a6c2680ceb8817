import cluster from 'node:cluster';
import pino, { type Logger } from 'pino';
import { loggableError } from '../subgraphs/shared/loggable-error';

/** The process logger: JSON lines on stdout. Request bodies, headers, query strings and SQL values are never logged. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    // With WEB_CONCURRENCY > 1 several processes write one stream: the pid tells them apart.
    base: cluster.isWorker ? { service: 'gateway', pid: process.pid } : { service: 'gateway' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers', 'headers["api-key"]', 'apiKey'], remove: true },
    serializers: { err: loggableError },
  });
}
