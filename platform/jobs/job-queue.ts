import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Db, JobInsert, PgBoss, Queue } from 'pg-boss' with { 'resolution-mode': 'import' };
import type { JobSettings } from './job-settings';
import { loadPgBoss, type PgBossLib } from './pg-boss';

/** The PostgreSQL schema pg-boss keeps every queue in (docs/decisions.md, Data ownership). */
export const JOB_SCHEMA = 'jobs';

/** A queue a subgraph owns: `<subgraph>.<job>`, created or updated by the migrations. */
export interface JobQueueDefinition {
  name: string;
  options: Omit<Queue, 'name'>;
}

/** This process's job queue: pg-boss started on the shared database. */
export interface JobQueue {
  readonly boss: PgBoss;
  readonly lib: PgBossLib;
  /** Adds jobs inside the ORM transaction `em` runs in: they commit or roll back with the change. */
  addInTransaction(em: EntityManager, queue: string, jobs: JobInsert[]): Promise<void>;
  /** Stops the workers (the jobs in hand finish, up to `timeoutMs`) and closes the pool. */
  stop(timeoutMs?: number): Promise<void>;
}

/** How a process uses its queue. */
export interface JobQueueOptions {
  /** Expire the jobs of crashed workers and keep the queue counts (processes that run workers). */
  supervise: boolean;
  settings: JobSettings;
  /** Connections of pg-boss's own pool: fetching, completing, and the workers' bookkeeping. */
  poolMax?: number;
  /** pg-boss's errors (a failed poll, a lost connection); it keeps going. */
  onError: (error: Error) => void;
}

/** The ORM extension name under which a subgraph's ORM carries its process's queue. */
const EXTENSION = 'hpp:job-queue';

/**
 * Starts pg-boss on `databaseUrl` (the schema must be installed: `installJobQueues`). Workers wake
 * on LISTEN/NOTIFY when a job is added and poll as a backstop.
 */
export async function openJobQueue(databaseUrl: string, options: JobQueueOptions): Promise<JobQueue> {
  const lib = await loadPgBoss();
  const boss = new lib.PgBoss({
    connectionString: databaseUrl,
    schema: JOB_SCHEMA,
    application_name: 'hpp-jobs',
    max: options.poolMax ?? 10,
    migrate: false,
    schedule: false,
    supervise: options.supervise,
    superviseIntervalSeconds: options.settings.superviseSeconds,
    monitorIntervalSeconds: options.settings.superviseSeconds,
    // Workers read a queue's backlog from this cache to fetch again at once (the webhook
    // deliveries' burst); pg-boss's default of 60 s left a new backlog polled slowly for a minute.
    queueCacheIntervalSeconds: options.settings.superviseSeconds,
    useListenNotify: options.supervise,
    // The Prometheus metrics and the delivery log are the platform's records; no instance registry rows.
    registerInstance: false,
  });
  boss.on('error', options.onError);
  await boss.start();
  return {
    boss,
    lib,
    async addInTransaction(em, queue, jobs) {
      if (jobs.length === 0) return;
      const trx = em.getTransactionContext();
      if (!trx) throw new Error(`jobs for ${queue} must be added inside the transaction of the change they belong to`);
      await boss.insert(queue, jobs, { db: lib.fromKnex(trx as never) });
    },
    stop: (timeoutMs = 10_000) => boss.stop({ graceful: true, timeout: timeoutMs }),
  };
}

/**
 * Installs or upgrades pg-boss's schema and creates (or updates) the given queues: `npm run
 * migrate` in distributed mode, the start of all-in-one. pg-boss takes an advisory lock, so
 * concurrent starts are safe.
 */
export async function installJobQueues(databaseUrl: string, queues: JobQueueDefinition[]): Promise<void> {
  const lib = await loadPgBoss();
  const boss = new lib.PgBoss({ connectionString: databaseUrl, schema: JOB_SCHEMA, max: 2, migrate: true, schedule: false, supervise: false, registerInstance: false });
  boss.on('error', () => undefined);
  await boss.start();
  try {
    for (const { name, options } of queues) {
      await boss.createQueue(name, options);
      // createQueue leaves an existing queue as it was: a changed option reaches it here.
      const { policy: _policy, partition: _partition, deadLetter: _deadLetter, ...changeable } = options;
      await boss.updateQueue(name, changeable);
    }
  } finally {
    await boss.stop({ graceful: false, close: true });
  }
}

/** Lets `enqueue` find this process's queue from any entity manager of `orm`. */
export function attachJobQueue(orm: MikroORM, queue: JobQueue): void {
  orm.config.registerExtension(EXTENSION, () => queue);
}

/** The queue attached to the ORM that `em` belongs to. */
export function jobQueueOf(em: EntityManager): JobQueue {
  const queue = em.config.getExtension<JobQueue>(EXTENSION);
  if (!queue) throw new Error('no job queue is attached to this ORM (attachJobQueue)');
  return queue;
}

/**
 * Adds jobs to `queue` in the transaction `em` runs in (`em.transactional(...)`): no job without
 * its change, no change without its job. Throws outside a transaction.
 */
export function enqueue(em: EntityManager, queue: string, jobs: JobInsert[]): Promise<void> {
  return jobQueueOf(em).addInTransaction(em, queue, jobs);
}

/** A pg-boss `db` over one `pg` client's open transaction (a worker's own bookkeeping). */
export function clientDb(client: { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> }): Db {
  return { executeSql: (text, values) => client.query(text, values) as Promise<{ rows: any[] }> };
}
