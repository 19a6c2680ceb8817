import type { Db, Job } from 'pg-boss' with { 'resolution-mode': 'import' };
import type { Logger } from 'pino';
import type { JobQueue } from '../../../platform/jobs/job-queue';
import { WEBHOOK_EVENT_QUEUE, type WebhookEventJob } from '../../../platform/jobs/webhook-event';
import { WebhookDeliveryRepository } from '../repositories/webhook-delivery.repository';
import { deliverJobs, type DeliveryHooks } from './deliver';
import { deliveryJob, WEBHOOK_DELIVERY_QUEUE } from './queues';
import { relayEvents } from './relay';
import type { WebhookSettings } from './settings';

/** One round's work (tests). */
export interface RoundResult {
  relayed: number;
  attempted: number;
}

type Log = Pick<Logger, 'info' | 'error'>;

const PRUNE_EVERY_MS = 3_600_000;

/**
 * The tenant subgraph's webhook workers on the process's job queue: domain events become
 * deliveries (one transaction with their jobs' completion), and each delivery job makes one
 * attempt. Any number of processes may run them over one database: pg-boss hands each job to one
 * worker at a time, and a crashed worker's jobs expire after the lease and run again
 * (docs/webhooks.md, The dispatcher).
 */
export class WebhookJobs {
  private readonly workers: [queue: string, id: string][] = [];
  private pruneTimer: NodeJS.Timeout | null = null;
  private readonly db: Db;

  constructor(
    private readonly queue: JobQueue,
    private readonly settings: WebhookSettings,
    private readonly log: Log,
    private readonly hooks: DeliveryHooks = {},
  ) {
    this.db = queue.boss.getDb();
  }

  /** Gives pending deliveries of an earlier release a job, then registers the workers and the hourly prune. */
  async start(): Promise<void> {
    const { boss } = this.queue;
    const adopted = await this.adoptUnqueued();
    if (adopted > 0) this.log.info({ adopted }, 'queued webhook deliveries from before the job queue');
    // Jobs added from now on expire with this process's lease (WEBHOOK_TIMEOUT_MS + 5 s).
    await boss.updateQueue(WEBHOOK_DELIVERY_QUEUE, { expireInSeconds: this.settings.leaseSeconds });
    // NOTIFY wakes a worker only for a job due at once; a retry due later is found by polling, so
    // the poll keeps its pace while NOTIFY is on (pg-boss would otherwise relax it to 30 s).
    const pollingIntervalSeconds = Math.max(0.5, this.settings.pollMs / 1000);
    const polling = { pollingIntervalSeconds, notifyPollingIntervalSeconds: pollingIntervalSeconds };
    this.workers.push([
      WEBHOOK_EVENT_QUEUE,
      await boss.work(WEBHOOK_EVENT_QUEUE, { ...polling, transactional: true, batchSize: this.settings.batchSize, burstWhenBatchFull: true }, async (jobs: Job<WebhookEventJob>[], tx: Db) => {
        await relayEvents(tx, boss, jobs.map((j) => j.data));
      }),
    ]);
    // One job per worker, as many workers as slots: a slot frees the moment its attempt ends, so a
    // slow endpoint holds only the slots of its own deliveries, never a batch of other tenants'
    // (issue 31). groupConcurrency leaves an endpoint's jobs beyond its share in the queue, holding
    // nothing; the admission transaction makes the share exact across workers and processes.
    this.workers.push([
      WEBHOOK_DELIVERY_QUEUE,
      await boss.work<{ deliveryId: string }>(
        WEBHOOK_DELIVERY_QUEUE,
        // With `burst`, a worker whose fetch found a job fetches again at once while the queue has
        // a backlog (pg-boss's `burstWhenReadyExceeds`; `burstWhenBatchFull` is ignored at a batch
        // of one; the backlog is read from the queue cache, refreshed every supervise interval):
        // otherwise each worker waits a polling interval after every job. An empty fetch polls.
        { ...polling, batchSize: 1, ...(this.settings.burst ? { burstWhenReadyExceeds: 1 } : {}), localConcurrency: this.settings.concurrency, groupConcurrency: this.settings.endpointConcurrency, perJobResults: true },
        async (jobs) => this.results(jobs, await this.deliver(jobs)),
      ),
    ]);
    const prune = () => void this.prune().catch((error) => this.log.error({ err: error }, 'webhook log prune failed'));
    this.pruneTimer = setInterval(prune, PRUNE_EVERY_MS);
    this.pruneTimer.unref();
    prune();
  }

  /** Stops fetching and waits for the batches in hand (their lease would retry them anyway). */
  async stop(): Promise<void> {
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.pruneTimer = null;
    for (const [queue, id] of this.workers.splice(0)) await this.queue.boss.offWork(queue, { id, wait: true });
  }

  /** Relays one batch of events and attempts one batch of due deliveries, without the workers (tests, benchmarks). */
  async runOnce(): Promise<RoundResult> {
    const { boss } = this.queue;
    const tx = await this.db.beginTransaction!();
    let relayed = 0;
    try {
      const events = await boss.fetch<WebhookEventJob>(WEBHOOK_EVENT_QUEUE, { batchSize: this.settings.batchSize, db: tx.db });
      relayed = events.length;
      await relayEvents(tx.db, boss, events.map((j) => j.data));
      if (events.length > 0) await boss.complete(WEBHOOK_EVENT_QUEUE, events.map((j) => j.id), null, { db: tx.db });
      await tx.commit();
    } catch (error) {
      await tx.rollback();
      throw error;
    }
    const jobs = await boss.fetch<{ deliveryId: string }>(WEBHOOK_DELIVERY_QUEUE, { batchSize: this.settings.concurrency, groupConcurrency: this.settings.endpointConcurrency });
    if (jobs.length > 0) {
      const outcomes = await this.deliver(jobs);
      const done = jobs.filter((j) => outcomes.get(j.id) !== 'busy').map((j) => j.id);
      const busy = jobs.filter((j) => outcomes.get(j.id) === 'busy').map((j) => j.id);
      if (done.length) await boss.complete(WEBHOOK_DELIVERY_QUEUE, done);
      if (busy.length) await boss.fail(WEBHOOK_DELIVERY_QUEUE, busy, { reason: 'delivery held by another worker' });
    }
    return { relayed, attempted: jobs.length };
  }

  private deliver(jobs: Job<{ deliveryId: string }>[]) {
    return deliverJobs(this.db, this.queue.boss, jobs.map((j) => j.id), this.settings, this.hooks);
  }

  /** A busy delivery's job fails, so pg-boss offers it again after a short backoff. */
  private results(jobs: Job<unknown>[], outcomes: Map<string, 'done' | 'busy'>) {
    return jobs.map((j) => ({ id: j.id, status: outcomes.get(j.id) === 'busy' ? ('failed' as const) : ('completed' as const) }));
  }

  /** Pending deliveries without a job (written before deliveries ran on jobs) each get one, due when the row says. */
  private async adoptUnqueued(): Promise<number> {
    const tx = await this.db.beginTransaction!();
    try {
      const adopted = await WebhookDeliveryRepository.adoptUnqueuedUnscoped(tx.db);
      if (adopted.length > 0) await this.queue.boss.insert(WEBHOOK_DELIVERY_QUEUE, adopted.map((r) => deliveryJob(r.job_id, r.id, r.tenant_id, r.next_attempt_at)), { db: tx.db });
      await tx.commit();
      return adopted.length;
    } catch (error) {
      await tx.rollback();
      throw error;
    }
  }

  /** Deletes delivered deliveries past the retention window; failed ones stay for inspection and redelivery. */
  private async prune(): Promise<void> {
    const pruned = await WebhookDeliveryRepository.pruneDeliveredUnscoped(this.db, this.settings.retentionDays);
    if (pruned > 0) this.log.info({ pruned }, 'webhook log pruned');
  }
}
