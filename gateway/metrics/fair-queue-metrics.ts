import { Counter, Gauge } from 'prom-client';
import type { FairShare } from '../../platform/fair-share';

/*
 * The fair queues of expensive work (platform/fair-share.ts) of the subgraphs this process
 * runs: labelled by queue, never by tenant, so the series count stays two per queue and state.
 */

/** The queues watched now; several copies of one queue name (two apps in one test process) add up. */
const watched = new Set<FairShare>();

/** Units running and waiting, read from the queues at scrape time. */
export const fairQueueUnits = new Gauge({
  name: 'hpp_fair_queue_units',
  help: "Units of expensive work in this process's fair queues, by queue (analytics: analytics queries and revenue aggregates; logo: logo decodes) and state (running, waiting)",
  labelNames: ['queue', 'state'] as const,
  aggregator: 'sum',
  collect() {
    this.reset();
    for (const queue of watched) {
      const { running, waiting } = queue.counts();
      this.inc({ queue: queue.name, state: 'running' }, running);
      this.inc({ queue: queue.name, state: 'waiting' }, waiting);
    }
  },
});

/** Units that never ran because their request went away while they waited. */
export const fairQueueDropped = new Counter({
  name: 'hpp_fair_queue_dropped_total',
  help: 'Units of expensive work dropped from a fair queue without running because their client closed its connection first, by queue',
  labelNames: ['queue'] as const,
});

/** Units refused with 429 RATE_LIMITED. */
export const fairQueueRefusals = new Counter({
  name: 'hpp_fair_queue_refusals_total',
  help: "Units of expensive work refused with 429 RATE_LIMITED by a fair queue (waited past the bound, or the tenant's queue was full), by queue",
  labelNames: ['queue'] as const,
});

/** Counts and reads `queues` until the answered function is called (the app's close). */
export function watchFairQueues(queues: readonly FairShare[]): () => void {
  const stops = queues.map((queue) => {
    const labels = { queue: queue.name };
    // Series from the start, so rate() sees the first drop or refusal.
    fairQueueDropped.inc(labels, 0);
    fairQueueRefusals.inc(labels, 0);
    watched.add(queue);
    const stop = queue.listen((event) => {
      if (event.kind === 'dropped') fairQueueDropped.inc(labels);
      else if (event.kind === 'refused') fairQueueRefusals.inc(labels);
    });
    return () => {
      stop();
      watched.delete(queue);
    };
  });
  return () => stops.forEach((stop) => stop());
}
