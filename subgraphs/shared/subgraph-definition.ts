import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { NonEmptyArray } from 'type-graphql';
import type { ReferenceResolvers } from './build-federated-schema';
import type { OrmDefinition } from './orm';

/** The four subgraphs of docs/decisions.md, Data ownership; each owns the PostgreSQL schema of the same name. */
export const SUBGRAPH_NAMES = ['tenant', 'billing', 'analytics', 'notes'] as const;

/** One of SUBGRAPH_NAMES. */
export type SubgraphName = (typeof SUBGRAPH_NAMES)[number];

/** Everything the platform needs to know to run one subgraph, in-process or alone. */
export interface SubgraphDefinition extends OrmDefinition {
  name: SubgraphName;
  resolvers: NonEmptyArray<Function>;
  referenceResolvers?: ReferenceResolvers;
  /** Types reachable only through federation (entities with no root field of their own). */
  orphanedTypes?: Function[];
  /** Fills a new tenant with demo data; `em` is already scoped to that tenant. */
  seedDemo?: (em: EntityManager, tenantId: string) => Promise<void>;
  /** Starts the subgraph's background work (pollers) on its ORM; the runtime stops it before closing the ORM. */
  startBackground?: (orm: MikroORM) => BackgroundWork;
}

/** Background work a subgraph runs beside its resolvers, e.g. billing's notification sender. */
export interface BackgroundWork {
  /** Stops scheduling and waits for the run in progress. */
  stop(): Promise<void>;
}
