import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { NonEmptyArray } from 'type-graphql';
import type { ReferenceResolvers } from './build-federated-schema';
import type { FairShare } from './fair-share';
import type { JobQueue, JobQueueDefinition } from './jobs/job-queue';
import type { TenantScope } from './tenant-scope';
import type { OrmDefinition } from './orm';

/** The four subgraphs of docs/decisions.md, Data ownership; each owns the PostgreSQL schema of the same name. */
export const SUBGRAPH_NAMES = ['tenant', 'billing', 'analytics', 'notes'] as const;

/** One of SUBGRAPH_NAMES. */
export type SubgraphName = (typeof SUBGRAPH_NAMES)[number];

/** The environment as the config loaders read it. */
export type Env = Readonly<Record<string, string | undefined>>;

/** A subgraph's own settings as read from the environment: the values, or every problem found. */
export interface SettingsRead<S> {
  settings: S;
  problems: string[];
}

/** Everything the platform needs to know to run one subgraph, in-process or alone. */
export interface SubgraphDefinition<Settings = any, Deps = any> extends OrmDefinition {
  name: SubgraphName;
  resolvers: NonEmptyArray<Function>;
  referenceResolvers?: ReferenceResolvers;
  /** Types reachable only through federation (entities with no root field of their own). */
  orphanedTypes?: Function[];
  /** Fills a new tenant with demo data through the subgraph's repositories, bound to `scope` (the tenant just created). */
  seedDemo?: (em: EntityManager, scope: TenantScope) => Promise<void>;
  /** The job queues this subgraph owns (`<name>.<job>`), created by the migrations. */
  jobQueues?: JobQueueDefinition[];
  /**
   * Starts the subgraph's background work (job workers) on its ORM and the process's queue, with
   * its settings; the runtime stops it before closing the ORM.
   */
  startBackground?: (orm: MikroORM, jobs: JobQueue, settings: Settings, log: Logger) => Promise<BackgroundWork>;
  /**
   * Reads this subgraph's settings from the environment. Called only by config loaders: the
   * gateway's (in-process subgraphs), and a subgraph service's own when it runs alone.
   */
  readSettings?: (env: Env) => SettingsRead<Settings>;
  /**
   * Builds the subgraph's collaborators (a payment processor, a suggestion provider) from its
   * settings, once per running subgraph. Resolvers reach them as `ctx.deps`: no module variable
   * holds them, so two running copies (tests, a second app) never share one by accident.
   */
  configure?: (settings: Settings, log: Logger) => Deps;
  /**
   * Whether some of its reads accept a replica's staleness (platform/replica/stale-read.ts): with
   * DATABASE_REPLICA_URL set its ORM gets the replica and a lag monitor; the others never do.
   */
  staleReads?: boolean;
  /** The fair queues among those deps (expensive work: analytics, logo decodes), for the process's metrics. */
  fairQueues?: (deps: Deps) => readonly FairShare[];
}

/** Background work a subgraph runs beside its resolvers, e.g. billing's gift card e-mail workers. */
export interface BackgroundWork {
  /** Stops taking jobs and waits for the ones in hand. */
  stop(): Promise<void>;
}
