import 'reflect-metadata';
import { SUBGRAPHS } from '../subgraphs/registry';
import { installJobQueues, JOB_SCHEMA } from '../platform/jobs/job-queue';
import { migrateAlone } from '../platform/orm';
import { AUDIT_SCHEMA } from '../platform/audit/audit-schema';
import { ConfigError, loadConfig } from './config';
import { startEmbeddedPostgres } from './database/embedded-postgres';
import { GATEWAY_SCHEMA } from './database/gateway-schema';

/** `npm run migrate`: applies every subgraph's pending migrations to DATABASE_URL (or the embedded database), and installs the job queue's schema and queues. */
export async function migrateAll(databaseUrl: string, report: (line: string) => void = () => undefined): Promise<void> {
  const queues = SUBGRAPHS.flatMap((s) => s.jobQueues ?? []);
  await installJobQueues(databaseUrl, queues);
  report(`${JOB_SCHEMA}: pg-boss installed; queues ${queues.map((q) => q.name).join(', ')}`);
  for (const definition of [GATEWAY_SCHEMA, AUDIT_SCHEMA, ...SUBGRAPHS]) {
    const applied = await migrateAlone(definition, databaseUrl);
    report(`${definition.schema}: ${applied.length ? applied.join(', ') : 'up to date'}`);
  }
}

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, MODE: 'all-in-one' });
  const embedded = config.databaseUrl ? null : await startEmbeddedPostgres({ dataDir: config.dataDir });
  try {
    await migrateAll(config.databaseUrl ?? embedded!.url, (line) => console.log(line));
  } finally {
    await embedded?.stop();
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
