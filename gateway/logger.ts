import cluster from 'node:cluster';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { errorLogOptions } from '../platform/loggable-error';

/** The process logger: JSON lines on stdout (or `destination`). Request bodies, headers, query strings and SQL values are never logged (loggable-error.ts). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    // With WEB_CONCURRENCY > 1 several processes write one stream: the pid tells them apart.
    base: cluster.isWorker ? { service: 'gateway', pid: process.pid } : { service: 'gateway' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers', 'headers["api-key"]', 'apiKey'], remove: true },
    ...errorLogOptions,
  };
  return destination ? pino(options, destination) : pino(options);
}
