import { DEFAULT_SUPERVISE_SECONDS, readJobSettings, type JobSettings } from '../platform/jobs/job-settings';
import { readWebhookSettings, type WebhookSettings } from '../subgraphs/tenant';
import { ConfigError } from './config';

/** What `npm run worker` needs: the shared database, its job queue's settings and the tenant subgraph's webhook settings. */
export interface WorkerConfig {
  databaseUrl: string;
  jobs: JobSettings;
  webhooks: WebhookSettings;
  logLevel: string;
}

/** The config loader of `npm run worker`: DATABASE_URL, LOG_LEVEL, JOB_SUPERVISE_SECONDS and the WEBHOOK_* variables, every problem at once. */
export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const jobs = readJobSettings(env);
  const webhooks = readWebhookSettings(env);
  const problems = [...jobs.problems, ...webhooks.problems];
  const databaseUrl = env.DATABASE_URL?.trim();
  if (!databaseUrl) problems.unshift('DATABASE_URL is required: the worker delivers from the shared database');
  if (problems.length) throw new ConfigError(problems);
  return {
    databaseUrl: databaseUrl!,
    jobs: jobs.settings ?? { superviseSeconds: DEFAULT_SUPERVISE_SECONDS },
    webhooks: webhooks.settings!,
    logLevel: env.LOG_LEVEL?.trim() || 'info',
  };
}
