import { METHODS } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { routeLabel } from '../http/access-log';
import { httpDuration, httpRequests } from './instruments';

const KNOWN_METHODS = new Set(METHODS);

/**
 * Counts every finished request and observes its duration, labelled by the access log's route
 * template (never the raw path: ids would make a series per patient). One counter increment and
 * one histogram observation per request, on `finish`, off the request's own path.
 */
export function httpMetrics() {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const method = KNOWN_METHODS.has(req.method) ? req.method : 'OTHER';
      const route = routeLabel(req, res);
      httpRequests.inc({ method, route, status: String(res.statusCode) });
      httpDuration.observe({ method, route }, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}
