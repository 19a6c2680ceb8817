import pino, { type Logger } from 'pino';

/** The process logger: JSON lines on stdout. Request bodies, headers and query strings are never logged. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'gateway' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers', 'headers["api-key"]', 'apiKey'], remove: true },
  });
}
