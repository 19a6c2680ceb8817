import type { RequestHandler } from 'express';
import type { RouteDefinition, RouteDeprecation } from './types';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Midnight UTC of a `YYYY-MM-DD` day; throws on anything else, including days that do not exist (2027-02-30). */
export function utcDay(day: string): Date {
  const match = DAY.exec(day);
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
  if (!date || date.toISOString().slice(0, 10) !== day) throw new Error(`"${day}" is not a YYYY-MM-DD day`);
  return date;
}

/** The headers a deprecated route's every response carries, errors included. */
export function deprecationHeaders(deprecation: RouteDeprecation): Record<string, string> {
  const since = utcDay(deprecation.since);
  const sunset = utcDay(deprecation.sunset);
  if (sunset <= since) throw new Error(`sunset ${deprecation.sunset} is not after ${deprecation.since}`);
  const headers: Record<string, string> = {
    // RFC 9745: an sf-date, `@` and the Unix time in seconds.
    Deprecation: `@${since.getTime() / 1000}`,
    // RFC 8594: an HTTP-date (IMF-fixdate), which toUTCString writes.
    Sunset: sunset.toUTCString(),
  };
  if (deprecation.link) headers.Link = `<${new URL(deprecation.link).href}>; rel="deprecation"`;
  return headers;
}

/**
 * Writes the route's deprecation headers before anything else runs, so that every answer the
 * route gives (a 401 or a 422 as much as its success) tells the client it is going away. Built at
 * start-up: a route table with a malformed deprecation refuses to start.
 */
export function deprecationGuard(route: RouteDefinition): RequestHandler | null {
  if (!route.deprecated) return null;
  let headers: Record<string, string>;
  try {
    headers = deprecationHeaders(route.deprecated);
  } catch (error) {
    throw new Error(`REST route ${route.method} ${route.path}: deprecated: ${(error as Error).message}`);
  }
  return (_req, res, next) => {
    for (const [name, value] of Object.entries(headers)) res.append(name, value);
    next();
  };
}
