import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { setHttpRoute } from '../../platform/tracing/http-route';
import { recordHttpRequest } from '../metrics/http-metrics';
import { contextOf } from './request-context';

/** Route pattern -> label, computed once per pattern: the replace was a measurable part of every request. */
const labels = new Map<string, string>();

/**
 * The matched route's template, as the contract writes it (`/patients/{patient_id}`): set by the
 * handler, else express's pattern of a route refused in its guards (`:patient_id` written the same
 * way), else `unmatched`. No ids and no query string, so neither logs nor metrics see patient data.
 */
export function routeLabel(req: Request, res: Response): string {
  const route: unknown = res.locals.route ?? req.route?.path;
  if (typeof route !== 'string') return 'unmatched';
  let label = labels.get(route);
  if (label === undefined) {
    label = route.replace(/:(\w+)/g, '{$1}');
    // Patterns come from the route tables, never from a request, so this holds a few dozen entries.
    labels.set(route, label);
  }
  return label;
}

/** Names the route of a mounted handler (`app.use('/graphql', ...)`), which express leaves without a `req.route`. */
export function routeNamed(route: string) {
  return (_req: Request, res: Response, next: NextFunction) => {
    res.locals.route = route;
    next();
  };
}

/**
 * One line per finished request (method, route, status, duration, tenant, request id) and its
 * metrics (gateway/metrics/http-metrics.ts), from one `finish` listener. The route is the matched
 * pattern (no ids, no query string), so no patient data reaches the log or a metric label.
 */
export function accessLog(log: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ctx = contextOf(res);
      const route = routeLabel(req, res);
      // The edge span's name and http.route: the template, never the raw path.
      setHttpRoute(route);
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      recordHttpRequest(req.method, route, res.statusCode, durationMs / 1000);
      const info = log.isLevelEnabled('info');
      if (res.statusCode < 500 && !info) return;
      const line = { method: req.method, route, status: res.statusCode, durationMs: Math.round(durationMs * 100) / 100, tenantId: ctx.tenantId };
      // Asked of the parent: the request's own child logger is made only when a line is written.
      if (res.statusCode >= 500) ctx.log.error(line, 'request');
      else ctx.log.info(line, 'request');
    });
    next();
  };
}
