import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, register, type PrometheusContentType } from 'prom-client';

/** The IPC message a worker sends to have the primary gather every worker's metrics. */
const SCRAPE_REQUEST = 'hpp:metrics:scrape';
/** The primary's answer: the summed exposition text, or why it failed. */
const SCRAPE_RESPONSE = 'hpp:metrics:scraped';
/** Longer than prom-client's own 5 s wait for the workers. */
const SCRAPE_TIMEOUT_MS = 8_000;

interface ScrapeResponse {
  type: typeof SCRAPE_RESPONSE;
  id: string;
  text?: string;
  error?: string;
}

/** The Prometheus text format's content type, whichever process answers. */
export const METRICS_CONTENT_TYPE = register.contentType;

let aggregator: AggregatorRegistry<PrometheusContentType> | null = null;

/**
 * Makes this process take part in cluster scrapes: in a worker, prom-client's AggregatorRegistry
 * answers the primary's requests with the global registry; in the primary, it asks every worker
 * and merges (counters and histograms summed, gauges by their `aggregator`). Idempotent.
 */
export function joinClusterScrapes(): AggregatorRegistry<PrometheusContentType> {
  aggregator ??= new AggregatorRegistry();
  return aggregator;
}

/**
 * The exposition text of every HTTP process: the global registry in a single process; under
 * WEB_CONCURRENCY the primary's merge of all workers, asked for over IPC (only the primary can
 * reach every worker).
 */
export function scrapeAll(): Promise<string> {
  if (!cluster.isWorker) return register.metrics();
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const onMessage = (message: ScrapeResponse) => {
      if (message?.type !== SCRAPE_RESPONSE || message.id !== id) return;
      done();
      if (message.error !== undefined) reject(new Error(`cluster metrics: ${message.error}`));
      else resolve(message.text ?? '');
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error('cluster metrics: the primary did not answer in time'));
    }, SCRAPE_TIMEOUT_MS);
    const done = () => {
      clearTimeout(timer);
      process.off('message', onMessage);
    };
    process.on('message', onMessage);
    process.send!({ type: SCRAPE_REQUEST, id });
  });
}

/** In the primary: answers workers' scrape requests with every worker's metrics merged. */
export function answerWorkerScrapes(): void {
  const registry = joinClusterScrapes();
  cluster.on('message', (worker, message: { type?: string; id?: string }) => {
    if (message?.type !== SCRAPE_REQUEST) return;
    const reply = (body: Omit<ScrapeResponse, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: SCRAPE_RESPONSE, id: message.id, ...body });
    };
    registry.clusterMetrics().then((text) => reply({ text }), (error: Error) => reply({ error: error.message }));
  });
}
