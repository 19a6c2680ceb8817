import { METHODS } from 'node:http';
import { httpDuration, httpRequests } from './instruments';

const KNOWN_METHODS = new Set(METHODS);

/**
 * Counts a finished request and observes its duration, labelled by the access log's route
 * template (never the raw path: ids would make a series per patient). Called by the access log's
 * one `finish` listener (gateway/http/access-log.ts), off the request's own path.
 */
export function recordHttpRequest(method: string, route: string, status: number, seconds: number): void {
  const label = KNOWN_METHODS.has(method) ? method : 'OTHER';
  httpRequests.inc({ method: label, route, status: String(status) });
  httpDuration.observe({ method: label, route }, seconds);
}
