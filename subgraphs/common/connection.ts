import { ArgsType, Directive, Field, Int, ObjectType } from 'type-graphql';
import type { ClassType } from 'type-graphql';
import { CONNECTION_PAGE, keysetCursor } from '../../schema/list-cursor';

/** Default and maximum `first`/`last` of every connection (docs/api.md, "Pagination"). */
export const CONNECTION_DEFAULTS = { first: CONNECTION_PAGE.first, maxFirst: CONNECTION_PAGE.max } as const;

/** Relay's page info: where this slice sits in the list (graphql.org/learn/pagination, Relay cursor connections spec). Every subgraph has lists: shareable. */
@Directive('@shareable')
@ObjectType('PageInfo', { description: 'Where a slice of a connection sits in the whole list' })
export class PageInfo {
  @Field({ description: 'More rows follow endCursor (with `after`: known; with `before`: true whenever `before` was given)' })
  hasNextPage!: boolean;

  @Field({ description: 'Rows precede startCursor (with `last`: known; with `after`: true whenever `after` was given)' })
  hasPreviousPage!: boolean;

  @Field(() => String, { nullable: true, description: 'Cursor of the first edge; null when there are none' })
  startCursor!: string | null;

  @Field(() => String, { nullable: true, description: 'Cursor of the last edge; null when there are none' })
  endCursor!: string | null;
}

/**
 * Adds the connection arguments to an arguments class (type-graphql's mixin pattern): for a list
 * whose arguments already extend another class, e.g. the revenue filters.
 */
export function ConnectionArgsOf<Base extends ClassType>(base: Base) {
  /**
   * `first`/`after` forwards, `last`/`before` backwards (the Relay spec's arguments). With neither
   * `first` nor `last`, the first 20 rows. Cursors are opaque; an edge's cursor stays valid while rows
   * are inserted or deleted, so paging on from it neither skips nor repeats a row.
   */
  @ArgsType()
  class WithConnectionArgs extends base {
    @Field(() => Int, { nullable: true, description: `The first n rows after \`after\` (0 to ${CONNECTION_DEFAULTS.maxFirst}); 20 when neither first nor last is given` })
    first?: number | null;

    @Field(() => String, { nullable: true, description: 'Rows after this cursor (an edge cursor or endCursor)' })
    after?: string | null;

    @Field(() => Int, { nullable: true, description: `The last n rows before \`before\` (0 to ${CONNECTION_DEFAULTS.maxFirst}); not with first` })
    last?: number | null;

    @Field(() => String, { nullable: true, description: 'Rows before this cursor (an edge cursor or startCursor)' })
    before?: string | null;
  }
  return WithConnectionArgs;
}

/** The connection arguments alone (docs/api.md, "Pagination"). */
@ArgsType()
export class ConnectionArgs extends ConnectionArgsOf(class {}) {}

/** One edge: a row and the cursor to page on from it. */
export interface Edge<T> {
  cursor: string;
  node: T;
}

/** A connection's answer: its edges (and their nodes alone, for clients that need no cursors), page info and the count of the whole list. */
export interface Connection<T> {
  edges: Edge<T>[];
  nodes: T[];
  pageInfo: PageInfo;
  totalCount: number;
}

/**
 * Makes the GraphQL connection type for an item type (type-graphql has no generics): the concrete
 * subclass is named `<name>Connection`, its edge type `<name>Edge`.
 */
export function ConnectionType<T extends object>(itemType: ClassType<T>, name: string) {
  @ObjectType(`${name}Edge`, { description: `One ${name} and its cursor` })
  class EdgeClass implements Edge<T> {
    @Field({ description: 'Opaque; pass as `after` or `before` to page on from this row' })
    cursor!: string;

    @Field(() => itemType)
    node!: T;
  }

  // Not emitted on its own: only the concrete subclass is reachable from a resolver.
  @ObjectType()
  abstract class ConnectionClass implements Connection<T> {
    @Field(() => [EdgeClass])
    edges!: Edge<T>[];

    @Field(() => [itemType], { description: 'The nodes of `edges`, in the same order' })
    nodes!: T[];

    @Field(() => PageInfo)
    pageInfo!: PageInfo;

    @Field(() => Int, { description: 'Rows in the whole list (every filter applied), not only this slice' })
    totalCount!: number;
  }
  return ConnectionClass;
}

/** What a repository found for one window: the rows in list order and what lies beyond them. */
export interface ListSlice<Row> {
  rows: Row[];
  totalCount: number;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

/** A window of a list that matches nothing (a filter that cannot match, answered without a query). */
export const EMPTY_SLICE: ListSlice<never> = Object.freeze({ rows: [], totalCount: 0, hasNextPage: false, hasPreviousPage: false }) as ListSlice<never>;

/** Builds the connection from a slice: each edge's cursor is its row's keyset (`keyOf`), mapped to the node by `toNode`. */
export function toConnection<Row, T>(slice: ListSlice<Row>, keyOf: (row: Row) => unknown[], toNode: (row: Row) => T): Connection<T> {
  const edges = slice.rows.map((row) => ({ cursor: keysetCursor(keyOf(row)), node: toNode(row) }));
  return {
    edges,
    nodes: edges.map((edge) => edge.node),
    pageInfo: {
      hasNextPage: slice.hasNextPage,
      hasPreviousPage: slice.hasPreviousPage,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: slice.totalCount,
  };
}
