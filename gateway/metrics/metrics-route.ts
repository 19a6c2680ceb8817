import type { Request, Response } from 'express';
import { METRICS_CONTENT_TYPE, scrapeAll } from './cluster-scrape';

/** `GET /metrics` on the API port, behind the operator token: every worker's metrics, summed. */
export function metricsRoute() {
  return async (_req: Request, res: Response) => {
    res.locals.route = '/metrics';
    const text = await scrapeAll();
    res.type(METRICS_CONTENT_TYPE).send(text);
  };
}
