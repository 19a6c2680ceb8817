import type { NextFunction, Request, Response } from 'express';
import { contextOf } from './request-context';

/**
 * One line per finished request: method, route, status, duration, tenant, request id. The route
 * is the matched pattern (no ids, no query string), so no patient data reaches the log.
 */
export function accessLog() {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ctx = contextOf(res);
      const route = (res.locals.route as string | undefined) ?? (req.route?.path as string | undefined) ?? 'unmatched';
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const line = { method: req.method, route, status: res.statusCode, durationMs: Math.round(durationMs * 100) / 100, tenantId: ctx.tenantId };
      if (res.statusCode >= 500) ctx.log.error(line, 'request');
      else ctx.log.info(line, 'request');
    });
    next();
  };
}
