import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { SUBGRAPHS } from '../../subgraphs/registry';
import { IDENTITY_HEADERS } from '../../platform/context';
import { installJobQueues, openJobQueue, type JobQueue } from '../../platform/jobs/job-queue';
import { closeWhenIdle, openOrm, migrateAlone, runMigrations } from '../../platform/orm';
import { AUDIT_SCHEMA } from '../../platform/audit/audit-schema';
import { startAuditRetention } from '../../platform/audit/retention';
import { startSubgraph, type RunningSubgraph } from '../../platform/subgraph-runtime';
import { TenantAccess, tenantSubgraph } from '../../subgraphs/tenant';
import type { Config } from '../config';
import { GATEWAY_SCHEMA } from './gateway-schema';
import { readRecordedServer, startEmbeddedPostgres } from './embedded-postgres';
import { jobQueueErrorReporter } from '../../platform/error-reporters';

/** Fills one tenant with demo data in one subgraph. */
export type DemoSeeder = (tenantId: string) => Promise<void>;

/** The data side of a running platform: database, subgraphs (when in-process) and the tenant store the edge needs. */
export interface Platform {
  databaseUrl: string;
  /** The subgraphs running in this process; null in distributed mode. */
  subgraphs: RunningSubgraph[] | null;
  /** ORM over the tenant schema (its pool is watched by the metrics). */
  tenantOrm: MikroORM;
  /** The tenant subgraph's public face on that ORM: API keys for authentication, tenants for the operator, public assets. */
  tenants: TenantAccess;
  /** ORM over the gateway's own schema (idempotency records). */
  gatewayOrm: MikroORM;
  /** One per subgraph, in composition order (the tenant's directory first). */
  seeders: DemoSeeder[];
  /** This process's job queue, shared by the in-process subgraphs; null in distributed mode. */
  jobs: JobQueue | null;
  stop(): Promise<void>;
}

/** Options of `bootPlatform`. */
export interface BootOptions {
  /** Apply migrations (all-in-one start, CLI); distributed mode migrates with `npm run migrate`. */
  migrate: boolean;
  /** Connect to an embedded PostgreSQL another process already runs on this data dir (the admin CLI). */
  reuseRunningEmbedded?: boolean;
  /** The caller stops the platform on SIGINT/SIGTERM; the embedded PostgreSQL must not stop itself first. */
  ownsSignals?: boolean;
  /** Start the in-process subgraphs' background work (default true; one worker of a cluster runs it). */
  background?: boolean;
}

/** Opens the database (embedded when DATABASE_URL is unset) and the subgraphs this process runs. */
export async function bootPlatform(config: Config, log: Logger, options: BootOptions): Promise<Platform> {
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((error) => log.error({ err: error }, 'shutdown step failed'));
  };
  try {
    const databaseUrl = await resolveDatabase(config, log, options, stops);
    const gatewayOrm = await openOrm(GATEWAY_SCHEMA, databaseUrl, config.dbPoolMax ?? undefined, config.plumbing.has('read-pool'));
    stops.push(() => closeWhenIdle(gatewayOrm, config.shutdownGraceMs));
    if (options.migrate) await runMigrations(gatewayOrm, databaseUrl, GATEWAY_SCHEMA.schema);
    if (options.migrate) await migrateAlone(AUDIT_SCHEMA, databaseUrl);
    if (options.background !== false) {
      const retention = startAuditRetention((sql, params) => gatewayOrm.em.getConnection().execute(sql, params), config.auditRetentionDays, log);
      stops.push(async () => retention.stop());
    }
    if (config.mode === 'distributed') {
      const tenantOrm = await openOrm(tenantSubgraph, databaseUrl, config.dbPoolMax ?? undefined, config.plumbing.has('read-pool'));
      stops.push(() => closeWhenIdle(tenantOrm, config.shutdownGraceMs));
      const seeders = SUBGRAPHS.map((s) => remoteSeeder(config.subgraphUrls[s.name]!, config.internalSecret!));
      return { databaseUrl, subgraphs: null, tenantOrm, tenants: new TenantAccess(tenantOrm), gatewayOrm, seeders, jobs: null, stop: stopAll };
    }
    if (options.migrate) await installJobQueues(databaseUrl, SUBGRAPHS.flatMap((s) => s.jobQueues ?? []));
    // One queue for the process: the workers of the first (or only) process supervise it.
    const jobs = await openJobQueue(databaseUrl, {
      supervise: options.background !== false,
      settings: config.jobs,
      onError: jobQueueErrorReporter(log),
    });
    stops.push(() => jobs.stop(config.shutdownGraceMs));
    const subgraphs: RunningSubgraph[] = [];
    for (const definition of SUBGRAPHS) {
      const subgraph = await startSubgraph(definition, databaseUrl, {
        migrate: options.migrate,
        publicUrl: config.publicUrl,
        background: options.background,
        settings: config.subgraphSettings[definition.name],
        log: log.child({ subgraph: definition.name }),
        poolMax: config.dbPoolMax ?? undefined,
        readPool: config.plumbing.has('read-pool'),
        replica: config.replica,
        jobs,
      });
      stops.push(() => subgraph.close(config.shutdownGraceMs));
      subgraphs.push(subgraph);
    }
    const tenantOrm = subgraphs.find((s) => s.name === 'tenant')!.orm;
    return { databaseUrl, subgraphs, tenantOrm, tenants: new TenantAccess(tenantOrm), gatewayOrm, seeders: subgraphs.map((s) => (tenantId) => s.seedDemo(tenantId)), jobs, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

async function resolveDatabase(config: Config, log: Logger, options: BootOptions, stops: (() => Promise<void>)[]): Promise<string> {
  if (config.databaseUrl) return config.databaseUrl;
  if (options.reuseRunningEmbedded) {
    const running = readRecordedServer(config.dataDir);
    if (running) return running.url;
  }
  const started = Date.now();
  const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, debug: config.embeddedPgDebug, log: (msg) => log.debug(msg), warn: (msg) => log.warn(msg), ownSignals: options.ownsSignals });
  stops.push(() => embedded.stop());
  log.info({ port: embedded.port, ms: Date.now() - started }, 'embedded PostgreSQL started');
  return embedded.url;
}

/** Asks a subgraph service to seed a tenant (distributed mode); the subgraph runs its own seeder. A replica that cannot be reached passes the call to the next. */
function remoteSeeder(baseUrls: readonly string[], secret: string): DemoSeeder {
  return async (tenantId) => {
    for (const [index, baseUrl] of baseUrls.entries()) {
      const url = new URL('/internal/seed', baseUrl);
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [IDENTITY_HEADERS.secret]: secret },
          body: JSON.stringify({ tenantId }),
        });
      } catch (error) {
        if (index < baseUrls.length - 1) continue;
        throw error;
      }
      if (!response.ok) throw new Error(`demo seeding at ${url.host} answered ${response.status}`);
      return;
    }
  };
}
