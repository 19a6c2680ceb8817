import { Pool } from 'pg';
import { ConfigError } from './config';
import { createLogger } from './logger';
import { WebhookDispatcher } from './webhooks/dispatcher';
import { loadDispatcherOptions } from './webhooks/options';

/** `npm run worker`: the webhook dispatcher as its own process (distributed mode); several may run at once. */
async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new ConfigError(['DATABASE_URL is required: the worker relays and delivers from the shared database']);
  const options = loadDispatcherOptions();
  const log = createLogger(process.env.LOG_LEVEL ?? 'info').child({ service: 'webhook-worker' });
  const pool = new Pool({ connectionString: databaseUrl, max: Math.min(options.concurrency + 2, 50) });
  const dispatcher = new WebhookDispatcher(pool, options, log);
  dispatcher.start();
  log.info({ pid: process.pid }, 'webhook worker started');
  const shutdown = async () => {
    await dispatcher.stop();
    await pool.end();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
