// autocannon ships no types; the few fields read here are declared in AutocannonResult.
const autocannon: (options: object) => Promise<AutocannonResult> = require('autocannon');

interface Histogram {
  mean: number;
  p50: number;
  p99: number;
  total: number;
  /** Requests sent (`requests` only): answered ones and those still in flight when the run stopped. */
  sent?: number;
}
interface AutocannonResult {
  requests: Histogram;
  latency: Histogram;
  duration: number;
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}

/** One HTTP request to repeat under load. */
export interface LoadTarget {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Header sets taken in turn, one per request across all connections (e.g. one per tenant); `headers` is then the base. */
  rotateHeaders?: Record<string, string>[];
}

/** How hard and how long to push. */
export interface LoadShape {
  durationSeconds: number;
  connections: number;
}

/** What a load run measured, reduced to what the reports compare. */
export interface LoadSummary {
  target: string;
  /** Mean of autocannon's per-second samples. */
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  /** Requests sent: `total` and those still in flight when the run stopped, which the server may yet have served. */
  sent: number;
  /** Wall time of the run: autocannon may overrun by a sample, so `total` can hold 11 s for a 10 s run. */
  seconds: number;
  ok: number;
  non2xx: number;
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

/** Runs autocannon against one target and summarises it. */
export async function runLoad(target: LoadTarget, shape: LoadShape): Promise<LoadSummary> {
  const result = await autocannon({
    url: target.url,
    method: target.method ?? 'GET',
    headers: target.headers ?? {},
    body: target.body,
    ...(target.rotateHeaders?.length ? { requests: [{ setupRequest: rotate(target.headers ?? {}, target.rotateHeaders) }] } : {}),
    duration: shape.durationSeconds,
    connections: shape.connections,
  });
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, stat]) => [code, stat.count]));
  return {
    target: target.name,
    requestsPerSecond: result.requests.mean,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    sent: result.requests.sent ?? result.requests.total,
    seconds: result.duration,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
  };
}

/** autocannon's per-request hook: the next header set in turn, whichever connection sends. */
function rotate(base: Record<string, string>, sets: Record<string, string>[]) {
  let next = 0;
  return (request: { headers?: Record<string, string> }) => ({ ...request, headers: { ...base, ...sets[next++ % sets.length] } });
}

/**
 * One summary for a target measured in parts: throughput weighted by each part's time, p50
 * weighted by its requests, p99 the worst part's (percentiles of parts do not merge exactly;
 * the higher one never flatters).
 */
export function combineLoads(parts: LoadSummary[]): LoadSummary {
  if (parts.length === 1) return parts[0];
  const sum = (pick: (part: LoadSummary) => number) => parts.reduce((total, part) => total + pick(part), 0);
  const seconds = sum((part) => part.seconds);
  const total = sum((part) => part.total);
  const statusCodes: Record<string, number> = {};
  for (const part of parts) for (const [code, count] of Object.entries(part.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  return {
    target: parts[0].target,
    requestsPerSecond: sum((part) => part.requestsPerSecond * part.seconds) / seconds,
    p50Ms: Math.round(sum((part) => part.p50Ms * part.total) / Math.max(1, total)),
    p99Ms: Math.max(...parts.map((part) => part.p99Ms)),
    total,
    sent: sum((part) => part.sent),
    seconds,
    ok: sum((part) => part.ok),
    non2xx: sum((part) => part.non2xx),
    errors: sum((part) => part.errors),
    timeouts: sum((part) => part.timeouts),
    statusCodes,
  };
}

/** True when every request got a 2xx answer: otherwise the numbers measure error paths, not the endpoint. */
export function isClean(summary: LoadSummary): boolean {
  return summary.total > 0 && summary.non2xx === 0 && summary.errors === 0 && summary.timeouts === 0;
}

/** Names what went wrong in a run, e.g. `3 non-2xx (429: 3), 1 connection error`; empty when clean. */
export function describeFailures(summary: LoadSummary): string {
  const parts: string[] = [];
  if (summary.total === 0) parts.push('no responses');
  if (summary.non2xx > 0) {
    const codes = Object.entries(summary.statusCodes).filter(([code]) => !code.startsWith('2'));
    parts.push(`${summary.non2xx} non-2xx (${codes.map(([code, count]) => `${code}: ${count}`).join(', ')})`);
  }
  const connectionErrors = summary.errors - summary.timeouts;
  if (connectionErrors > 0) parts.push(`${connectionErrors} connection error${connectionErrors === 1 ? '' : 's'}`);
  if (summary.timeouts > 0) parts.push(`${summary.timeouts} timeout${summary.timeouts === 1 ? '' : 's'}`);
  return parts.join(', ');
}
