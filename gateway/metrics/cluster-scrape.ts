import cluster, { type Worker } from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, register, type MetricObjectWithValues, type MetricValue } from 'prom-client';

/*
 * Cluster scrapes over the cluster's IPC. prom-client's own `clusterMetrics()` asks every
 * connected worker, and a worker still starting (connected, not yet listening for it) makes the
 * scrape time out; here a worker is asked only once it said it is ready, and one that exits
 * meanwhile is left out instead of failing the scrape.
 */
const READY = 'hpp:metrics:ready';
const COLLECT = 'hpp:metrics:collect';
const COLLECTED = 'hpp:metrics:collected';
const SCRAPE = 'hpp:metrics:scrape';
const SCRAPED = 'hpp:metrics:scraped';
/** How long the primary waits for the workers' metrics. */
const COLLECT_TIMEOUT_MS = 5_000;
/** How long a worker waits for the primary's merge; longer than the collection. */
const SCRAPE_TIMEOUT_MS = 8_000;

interface Message {
  type?: string;
  id?: string;
  metrics?: MetricObjectWithValues<MetricValue<string>>[];
  text?: string;
  error?: string;
}

/** The Prometheus text format's content type, whichever process answers. */
export const METRICS_CONTENT_TYPE = register.contentType;

let joined = false;

/** In a worker: answers the primary's collections with the global registry, and says it is ready. Idempotent. */
export function joinClusterScrapes(): void {
  if (joined || !cluster.isWorker) return;
  joined = true;
  process.on('message', (message: Message) => {
    if (message?.type !== COLLECT) return;
    register.getMetricsAsJSON().then(
      (metrics) => process.send?.({ type: COLLECTED, id: message.id, metrics }),
      (error: Error) => process.send?.({ type: COLLECTED, id: message.id, error: error.message }),
    );
  });
  process.send?.({ type: READY });
}

/** Waits for one request's answer on an IPC channel, or rejects after `ms`. */
function awaitReply(source: NodeJS.EventEmitter, id: string, type: string, ms: number, gone?: string): Promise<Message> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: Message) => {
      if (message?.type !== type || message.id !== id) return;
      done();
      if (message.error !== undefined) reject(new Error(message.error));
      else resolve(message);
    };
    const onGone = () => {
      done();
      resolve({});
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error('metrics: no answer in time'));
    }, ms);
    const done = () => {
      clearTimeout(timer);
      source.off('message', onMessage);
      if (gone) source.off(gone, onGone);
    };
    source.on('message', onMessage);
    if (gone) source.once(gone, onGone);
  });
}

/** A worker that went away mid-scrape: without a callback the send error would be thrown in the primary; its exit already settles the wait. */
const ignoreClosed = () => undefined;

/**
 * The primary's merge of every ready worker's metrics: counters and histograms summed, gauges by
 * their `aggregator` (sum unless the metric says otherwise). Installs the primary's listeners,
 * including the answer to workers' own scrape requests (`/metrics` on the API port).
 */
export function servePrimaryScrapes(): () => Promise<string> {
  const ready = new Set<Worker>();
  cluster.on('exit', (worker) => ready.delete(worker));
  const gather = async (): Promise<string> => {
    const replies = await Promise.all(
      [...ready].filter((worker) => worker.isConnected()).map((worker) => {
        const id = randomUUID();
        const reply = awaitReply(worker, id, COLLECTED, COLLECT_TIMEOUT_MS, 'exit');
        worker.send({ type: COLLECT, id }, undefined, ignoreClosed);
        return reply;
      }),
    );
    return AggregatorRegistry.aggregate(replies.flatMap((reply) => (reply.metrics ? [reply.metrics] : []))).metrics();
  };
  cluster.on('message', (worker, message: Message) => {
    if (message?.type === READY) ready.add(worker);
    if (message?.type !== SCRAPE) return;
    const reply = (body: Message) => worker.isConnected() && worker.send({ type: SCRAPED, id: message.id, ...body }, undefined, ignoreClosed);
    gather().then((text) => reply({ text }), (error: Error) => reply({ error: error.message }));
  });
  return gather;
}

/**
 * The exposition text of every HTTP process: the global registry in a single process; in a
 * cluster worker, the primary's merge of all workers, asked for over IPC (only the primary can
 * reach every worker).
 */
export async function scrapeAll(): Promise<string> {
  if (!cluster.isWorker) return register.metrics();
  const id = randomUUID();
  const reply = awaitReply(process, id, SCRAPED, SCRAPE_TIMEOUT_MS);
  process.send!({ type: SCRAPE, id });
  return (await reply).text ?? '';
}
