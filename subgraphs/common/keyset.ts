import type { EntityManager, EntityName, FilterQuery } from '@mikro-orm/postgresql';
import type { ListSlice } from './connection';
import type { ListWindow, SortKey } from './list-window';

/**
 * Keyset paging (docs/api.md, "Pagination"): a page starts strictly after the sort key values of
 * the row it follows, ties broken by id, so inserts and deletes between two requests shift no row
 * into or out of the next page. The row comparison `(k1, …, id) > (c1, …, cid)` is written out as
 * `k1 > c1 or (k1 = c1 and (k2 > c2 or …))`, because a list may sort its keys in different
 * directions and a nullable key needs IS NULL where `>` says unknown.
 */

type Direction = 'asc' | 'desc';

/** One condition of the keyset comparison, rendered for MikroORM or for SQL. */
export type Term =
  | { and: Term[] }
  | { or: Term[] }
  | { field: string; op: '>' | '<' | '='; value: unknown }
  | { field: string; op: 'null' | 'not null' };

/** What to read for one window: keyset conditions (AND-ed), in list order or its reverse, with offset and limit. */
export interface SliceQuery {
  conditions: Term[];
  reverse: boolean;
  offset: number;
  limit: number;
}

const flip = (direction: Direction): Direction => (direction === 'asc' ? 'desc' : 'asc');

/** A key's direction and where its NULLs go, as the list orders it or (`reversed`) backwards. */
function orderOf(key: SortKey<never>, reversed: boolean): { direction: Direction; nullsLast: boolean } {
  const nullsLast = key.nullsLast ?? key.direction === 'asc';
  return reversed ? { direction: flip(key.direction), nullsLast: !nullsLast } : { direction: key.direction, nullsLast };
}

/** `key` comes strictly later than `value` in this order; null when no row can. */
function later(key: SortKey<never>, value: unknown, order: { direction: Direction; nullsLast: boolean }): Term | null {
  if (value === null) return order.nullsLast ? null : { field: key.field, op: 'not null' };
  const beyondValue: Term = { field: key.field, op: order.direction === 'asc' ? '>' : '<', value };
  return key.nullable && order.nullsLast ? { or: [beyondValue, { field: key.field, op: 'null' }] } : beyondValue;
}

const same = (key: SortKey<never>, value: unknown): Term => (value === null ? { field: key.field, op: 'null' } : { field: key.field, op: '=', value });

/** Rows strictly after `values` in the list's order (`reversed`: strictly before it). */
function beyond(keys: SortKey<never>[], values: unknown[], reversed: boolean): Term {
  const any: Term[] = [];
  keys.forEach((key, i) => {
    const step = later(key, values[i], orderOf(key, reversed));
    if (step) any.push({ and: [...keys.slice(0, i).map((earlier, j) => same(earlier, values[j])), step] });
  });
  // No disjunct at all (every key at its end): nothing is beyond, a condition no row meets.
  return any.length ? { or: any } : { and: [{ field: keys[keys.length - 1].field, op: 'null' }, { field: keys[keys.length - 1].field, op: 'not null' }] };
}

/** A key's ORDER BY direction text; the NULLS clause only on nullable keys, so that plain indexes still serve the others. */
function orderText(key: SortKey<never>, reversed: boolean): string {
  const { direction, nullsLast } = orderOf(key, reversed);
  return key.nullable ? `${direction} nulls ${nullsLast ? 'last' : 'first'}` : direction;
}

/**
 * Reads one window of a list: `fetch` reads rows for a SliceQuery, `count` the whole list. Forward
 * windows read limit + 1 rows to know whether more follow; `last` reads the reverse order and turns
 * it back. Offset cursors (the REST bridge's page numbers) skip rows as OFFSET does.
 */
export async function readSlice<Row>(window: ListWindow, keys: SortKey<Row>[], fetch: (query: SliceQuery) => Promise<Row[]>, count: () => Promise<number>): Promise<ListSlice<Row>> {
  const anyKeys = keys as SortKey<never>[];
  const conditions: Term[] = [];
  if (window.after) conditions.push(beyond(anyKeys, window.after, false));
  if (window.before) conditions.push(beyond(anyKeys, window.before, true));
  const offsets = window.offset > 0 || window.offsetEnd !== null;
  if (!window.backward) {
    const limit = window.offsetEnd === null ? window.limit : Math.min(window.limit, Math.max(0, window.offsetEnd - window.offset));
    const rows = await fetch({ conditions, reverse: false, offset: window.offset, limit: limit + 1 });
    const more = rows.length > limit;
    // A first window that holds the whole list is its count: no second statement.
    const whole = conditions.length === 0 && window.offset === 0 && window.offsetEnd === null && !more;
    const totalCount = whole ? rows.length : await count();
    return { rows: rows.slice(0, limit), totalCount, hasNextPage: more, hasPreviousPage: window.after !== null || window.offset > 0 };
  }
  const totalCount = await count();
  if (offsets) {
    // `last` with an offset cursor: the positions are known from the count, so read forwards.
    const end = Math.min(window.offsetEnd ?? totalCount, totalCount);
    const start = Math.max(window.offset, end - window.limit, 0);
    const rows = end > start ? await fetch({ conditions, reverse: false, offset: start, limit: end - start }) : [];
    return { rows, totalCount, hasNextPage: end < totalCount, hasPreviousPage: start > 0 };
  }
  const rows = await fetch({ conditions, reverse: true, offset: 0, limit: window.limit + 1 });
  const more = rows.length > window.limit;
  return { rows: rows.slice(0, window.limit).reverse(), totalCount, hasNextPage: window.before !== null, hasPreviousPage: more };
}

/** The ORDER BY of a SliceQuery for MikroORM: each key in its direction, or every one flipped to read backwards. */
export function entityOrder(keys: SortKey<never>[], reverse: boolean): Record<string, string>[] {
  return keys.map((key) => ({ [key.field]: orderText(key, reverse) }));
}

/** A term as a MikroORM filter (property names, parameters bound by MikroORM). */
export function entityCondition(term: Term): Record<string, unknown> {
  if ('and' in term) return { $and: term.and.map(entityCondition) };
  if ('or' in term) return { $or: term.or.map(entityCondition) };
  switch (term.op) {
    case 'null':
      return { [term.field]: null };
    case 'not null':
      return { [term.field]: { $ne: null } };
    case '>':
      return { [term.field]: { $gt: term.value } };
    case '<':
      return { [term.field]: { $lt: term.value } };
    case '=':
      return { [term.field]: term.value };
  }
}

/**
 * A term as SQL over the keys' expressions. `params`: an array the values are pushed onto, each
 * written `?` (knex), or a function binding a value and returning its placeholder (`$n`).
 */
export function sqlCondition(term: Term, params: unknown[] | ((value: unknown) => string)): string {
  if ('and' in term) return `(${term.and.map((t) => sqlCondition(t, params)).join(' and ')})`;
  if ('or' in term) return `(${term.or.map((t) => sqlCondition(t, params)).join(' or ')})`;
  if (!('value' in term)) return `${term.field} is ${term.op}`;
  if (typeof params === 'function') return `${term.field} ${term.op} ${params(term.value)}`;
  params.push(term.value);
  return `${term.field} ${term.op} ?`;
}

/** The ORDER BY of a SliceQuery in SQL over the keys' expressions. */
export function sqlOrder(keys: SortKey<never>[], reverse: boolean): string {
  return keys.map((key) => `${key.field} ${orderText(key, reverse)}`).join(', ');
}

/**
 * One window of an entity's rows matching `where`, in the keys' order (the usual case of a MikroORM
 * list); `connectionType: 'read'` reads both statements from the replica (platform/replica/stale-read.ts).
 */
export function findSlice<Entity extends object>(
  em: EntityManager,
  entity: EntityName<Entity>,
  where: FilterQuery<Entity>,
  keys: SortKey<Entity>[],
  window: ListWindow,
  options: { populate?: string[]; connectionType?: 'read' | 'write' } = {},
): Promise<ListSlice<Entity>> {
  const anyKeys = keys as SortKey<never>[];
  return readSlice(
    window,
    keys,
    (query) => em.find(entity, { $and: [where, ...query.conditions.map(entityCondition)] } as FilterQuery<Entity>, { orderBy: entityOrder(anyKeys, query.reverse) as never, limit: query.limit, offset: query.offset, populate: options.populate as never, connectionType: options.connectionType }),
    () => em.count(entity, where, { connectionType: options.connectionType }),
  );
}

/** A row's cursor values under these keys (what `toConnection` writes into its edge's cursor). */
export const keyValues =
  <Row>(keys: SortKey<Row>[]) =>
  (row: Row): unknown[] =>
    keys.map((key) => key.value(row));
