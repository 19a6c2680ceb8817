import pino, { type Logger } from 'pino';
import { loggableError } from '../subgraphs/shared/loggable-error';

/** The process logger: JSON lines on stdout. Request bodies, headers, query strings and SQL values are never logged. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'gateway' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers', 'headers["api-key"]', 'apiKey'], remove: true },
    serializers: { err: loggableError },
  });
}
