import { Counter, Gauge, Histogram } from 'prom-client';

/*
 * The platform's own metrics, on prom-client's global registry: the one a cluster worker hands to
 * the primary's AggregatorRegistry. Counters and histograms are summed across workers; labels are
 * bounded (route templates, operation names that passed validation, outcomes), never tenant ids.
 */

/** Request latency buckets, in seconds: 5 ms to 10 s. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Finished HTTP requests by method, route template and status code. */
export const httpRequests = new Counter({
  name: 'hpp_http_requests_total',
  help: 'HTTP requests answered, by method, route template and status code',
  labelNames: ['method', 'route', 'status'] as const,
});

/** HTTP request duration by method and route template (no status: keeps the series count down). */
export const httpDuration = new Histogram({
  name: 'hpp_http_request_duration_seconds',
  help: 'HTTP request duration from the first middleware to the last byte, by method and route template',
  labelNames: ['method', 'route'] as const,
  buckets: LATENCY_BUCKETS,
});

/** GraphQL operations of /graphql that passed validation, by name, type and outcome. */
export const graphqlOperations = new Counter({
  name: 'hpp_graphql_operations_total',
  help: 'GraphQL operations run on /graphql, by operation name (or "anonymous"), type and outcome (ok or error)',
  labelNames: ['operation', 'type', 'outcome'] as const,
});

/** GraphQL operation duration by name and type. */
export const graphqlDuration = new Histogram({
  name: 'hpp_graphql_operation_duration_seconds',
  help: 'GraphQL operation duration on /graphql, by operation name (or "anonymous") and type',
  labelNames: ['operation', 'type'] as const,
  buckets: LATENCY_BUCKETS,
});

/** Requests refused for being over a budget. */
export const rateLimitRefusals = new Counter({
  name: 'hpp_rate_limit_refusals_total',
  help: 'Requests refused with 429 for being over a rate-limit budget, by policy (tenant or anonymous)',
  labelNames: ['policy'] as const,
});

/** Failed tenant authentications, by reason. */
export const authFailures = new Counter({
  name: 'hpp_auth_failures_total',
  help: 'Tenant-scoped requests refused by authentication, by reason (missing_headers, invalid_key, expired_key, wrong_tenant)',
  labelNames: ['reason'] as const,
});

/** Webhook delivery attempts by outcome. */
export const webhookAttempts = new Counter({
  name: 'hpp_webhook_attempts_total',
  help: 'Webhook delivery attempts, by outcome: delivered, retry (scheduled again) or failed (given up)',
  labelNames: ['outcome'] as const,
});

/** From an event's entry in the delivery log to its successful delivery. */
export const webhookDeliveryLag = new Histogram({
  name: 'hpp_webhook_delivery_lag_seconds',
  help: 'Time from an event entering the delivery log to its successful delivery (retries included)',
  buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 1_800, 7_200, 86_400],
});

/** 1 per worker process that answered the scrape: summed, the number of workers reporting. */
export const workersReporting = new Gauge({
  name: 'hpp_workers_reporting',
  help: 'HTTP processes whose metrics this scrape includes (1 in a single process; the worker count under WEB_CONCURRENCY)',
  aggregator: 'sum',
});
workersReporting.set(1);

/** Subscriptions asked for, by transport (`sse` on /graphql/stream, `ws` on /graphql) and outcome. */
export const subscriptionRequests = new Counter({
  name: 'hpp_graphql_subscriptions_total',
  help: 'GraphQL subscriptions asked for, by transport (sse or ws) and outcome (opened, refused, limited)',
  labelNames: ['transport', 'outcome'] as const,
});

/** Subscriptions open now, by transport. */
export const subscriptionsOpen = new Gauge({
  name: 'hpp_graphql_subscriptions_open',
  help: 'GraphQL subscriptions open now, by transport (sse or ws)',
  labelNames: ['transport'] as const,
  aggregator: 'sum',
});

/** graphql-ws connections past authentication and still open. */
export const websocketConnections = new Gauge({
  name: 'hpp_graphql_websocket_connections',
  help: 'GraphQL over WebSocket connections on /graphql that were acknowledged and are still open',
  aggregator: 'sum',
});
