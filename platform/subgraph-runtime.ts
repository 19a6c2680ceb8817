import type { MikroORM } from '@mikro-orm/postgresql';
import pino, { type Logger } from 'pino';
import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from './build-federated-schema';
import type { FairShare } from './fair-share';
import { createSubgraphContext, type RequestIdentity, type SubgraphContext } from './context';
import { DEFAULT_SHUTDOWN_GRACE_MS } from './http-drain';
import { attachJobQueue, openJobQueue, type JobQueue } from './jobs/job-queue';
import { DEFAULT_SUPERVISE_SECONDS, type JobSettings } from './jobs/job-settings';
import { closeOrm, closeWhenIdle, openOrm, runMigrations } from './orm';
import { attachReplicaMonitor } from './replica/replica-monitor';
import type { ReplicaSettings } from './replica/replica-settings';
import { drainLegacyOutbox } from './jobs/drain-legacy-outbox';
import { TenantScope } from './tenant-scope';
import { AuditReadLog } from './audit/read-log';
import type { SubgraphDefinition, SubgraphName } from './subgraph-definition';
import { jobQueueErrorReporter } from './error-reporters';

/** A subgraph with its schema built and its database open, ready to serve in-process or over HTTP. */
export interface RunningSubgraph {
  name: SubgraphName;
  schema: GraphQLSchema;
  orm: MikroORM;
  /** The resolver context for one request. */
  context(identity: RequestIdentity): SubgraphContext;
  /** The collaborators its definition's `configure` built (tests may replace one, e.g. the payment processor, on this running copy). */
  readonly deps: unknown;
  /** The fair queues its expensive work waits in (its definition's `fairQueues`), which the process's metrics watch. */
  readonly fairQueues: readonly FairShare[];
  /** Where its PHI reads' audit records wait to be written (tests flush it). */
  readonly auditReads: AuditReadLog;
  /** Runs the subgraph's demo seeder for one tenant, in one transaction. */
  seedDemo(tenantId: string): Promise<void>;
  /** Stops the background work, then closes the ORM once no query runs (or after `graceMs`). */
  close(graceMs?: number): Promise<void>;
}

/** How a subgraph is started. */
export interface SubgraphOptions {
  /** Apply pending migrations first. */
  migrate: boolean;
  /** Absolute base URL of the public API (PUBLIC_URL); default http://localhost:4000. */
  publicUrl?: string;
  /** Start the subgraph's background work (default true); tests that drive it by hand pass false. */
  background?: boolean;
  /** The subgraph's settings as its `readSettings` read them (a config loader's work); without them it reads an empty environment, i.e. its defaults. */
  settings?: unknown;
  /** Where its collaborators log (question migration failures); silent by default. */
  log?: Logger;
  /** Its connection pool's size (DB_POOL_MAX); DEFAULT_POOL_MAX when unset. */
  poolMax?: number;
  /** Whether hot prepared reads get a pool of their own (SPEED_PLUMBING `read-pool`); on by default. */
  readPool?: boolean;
  /** The process's job queue (all-in-one shares one); without it the subgraph opens its own. */
  jobs?: JobQueue;
  /** For a queue of its own (JOB_SUPERVISE_SECONDS). */
  jobSettings?: JobSettings;
  /** DATABASE_REPLICA_URL and REPLICA_MAX_LAG_MS; used only by a definition with `staleReads`. Unset: no replica. */
  replica?: ReplicaSettings;
}

/** Opens the ORM, optionally applies migrations, and builds the federated schema. */
export async function startSubgraph(
  definition: SubgraphDefinition,
  databaseUrl: string,
  options: SubgraphOptions,
): Promise<RunningSubgraph> {
  const replicaUrl = definition.staleReads ? (options.replica?.url ?? null) : null;
  const orm = await openOrm(definition, databaseUrl, options.poolMax, options.readPool, replicaUrl);
  const publicUrl = (options.publicUrl ?? 'http://localhost:4000').replace(/\/+$/, '');
  const runsBackground = options.background !== false;
  const log = options.log ?? pino({ level: 'silent' });
  // Started before anything can fail, so the catch below always has it to stop.
  const replica = replicaUrl ? attachReplicaMonitor(orm, definition.schema, options.replica!.maxLagMs, log) : undefined;
  let ownQueue: JobQueue | null = null;
  try {
    if (options.migrate) await runMigrations(orm, databaseUrl, definition.schema);
    if (!options.jobs) {
      const settings = options.jobSettings ?? { superviseSeconds: DEFAULT_SUPERVISE_SECONDS };
      ownQueue = await openJobQueue(databaseUrl, { supervise: runsBackground && !!definition.startBackground, settings, poolMax: 2, onError: jobQueueErrorReporter(log) });
    }
    const jobs = options.jobs ?? ownQueue!;
    attachJobQueue(orm, jobs);
    const schema = await buildFederatedSchema(definition.resolvers, definition.referenceResolvers, definition.orphanedTypes);
    const settings = options.settings ?? definition.readSettings?.({}).settings;
    const deps = definition.configure?.(settings, log) ?? {};
    if (runsBackground) {
      const moved = await drainLegacyOutbox(orm, definition.schema);
      if (moved > 0) log.info({ moved }, 'legacy outbox events moved to the job queue');
    }
    const background = runsBackground ? await definition.startBackground?.(orm, jobs, settings, log) : undefined;
    // PHI reads are recorded on the side, on the subgraph's own pool (docs/audit.md).
    const auditReads = new AuditReadLog((sql, params) => orm.em.getConnection().execute(sql, params), log);
    return {
      name: definition.name,
      schema,
      orm,
      deps,
      fairQueues: definition.fairQueues?.(deps) ?? [],
      auditReads,
      context: (identity) => createSubgraphContext(orm.em as never, identity, publicUrl, deps, auditReads),
      async seedDemo(tenantId) {
        if (!definition.seedDemo) return;
        const scope = TenantScope.ofStoredRow(tenantId);
        await scope.guard(orm.em.fork()).transactional((tx) => definition.seedDemo!(tx, scope));
      },
      async close(graceMs = DEFAULT_SHUTDOWN_GRACE_MS) {
        await background?.stop();
        await ownQueue?.stop(graceMs);
        await auditReads.close(graceMs);
        replica?.stop();
        await closeWhenIdle(orm, graceMs);
      },
    };
  } catch (error) {
    await ownQueue?.stop(0).catch(() => undefined);
    replica?.stop();
    await closeOrm(orm);
    throw error;
  }
}
