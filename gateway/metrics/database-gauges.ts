import type { MikroORM } from '@mikro-orm/postgresql';
import { Pool } from 'pg';
import { Gauge } from 'prom-client';
import type { Logger } from 'pino';
import { countDueNotifications } from '../../subgraphs/billing';
import { poolCounts } from '../../platform/orm';
import { readWebhookQueue } from '../../subgraphs/tenant';

/** A scrape never waits on a slow database for longer than this; the gauges then read NaN. */
const STATEMENT_TIMEOUT_MS = 2_000;

/**
 * This process's connection pools, read at scrape time: one series per pool (a subgraph's or the
 * gateway's schema) and state; summed across workers, the cluster's connections.
 */
export function watchPools(orms: { name: string; orm: MikroORM }[]): void {
  new Gauge({
    name: 'hpp_db_pool_connections',
    help: 'Database connections of this process\'s ORM pools (each with its hot-read pool), by pool (schema) and state: used, free, or pending (queries waiting for a connection)',
    labelNames: ['pool', 'state'] as const,
    collect() {
      for (const { name, orm } of orms) {
        const counts = poolCounts(orm);
        for (const state of ['used', 'free', 'pending'] as const) this.set({ pool: name, state }, counts[state]);
      }
    },
  });
}

/**
 * Backlogs kept in the database (webhook deliveries, gift card e-mails), read at scrape time on a
 * one-connection pool of their own under a statement timeout, so a scrape costs one short query
 * each and never takes a request's connection. Registered in one process of a cluster (the first
 * worker); `max` keeps a second reader from doubling them. Returns the pool's closer.
 */
export function watchBacklogs(databaseUrl: string, log: Logger): { close(): Promise<void> } {
  const pool = new Pool({ connectionString: databaseUrl, max: 1, statement_timeout: STATEMENT_TIMEOUT_MS, idleTimeoutMillis: 30_000 });
  pool.on('error', (error) => log.warn({ err: error }, 'metrics database connection failed'));
  // One read serves the three webhook gauges of a scrape (they are collected one after another).
  let queue: ReturnType<typeof readWebhookQueue> | null = null;
  const readQueue = () => {
    queue ??= readWebhookQueue(pool).finally(() => setImmediate(() => (queue = null)));
    return queue;
  };
  const gauge = (name: string, help: string, read: () => Promise<number>) =>
    new Gauge({
      name,
      help,
      aggregator: 'max',
      async collect() {
        this.set(await read().catch((error) => (log.warn({ err: error, metric: name }, 'metrics database read failed'), Number.NaN)));
      },
    });
  gauge('hpp_webhook_queue_depth', 'Webhook deliveries pending (due now or waiting for a retry)', async () => (await readQueue()).pending);
  gauge('hpp_webhook_oldest_pending_seconds', 'Age of the oldest pending webhook delivery since it entered the delivery log; 0 when none', async () => (await readQueue()).oldestPendingSeconds);
  gauge('hpp_webhook_overdue_seconds', 'How far past its due time the most overdue pending webhook delivery is (dispatcher lag); 0 when none', async () => (await readQueue()).overdueSeconds);
  gauge('hpp_emails_due', 'Gift card e-mails due now and not yet sent', () => countDueNotifications(pool));
  return { close: () => pool.end() };
}
