import { ValidationError, type ValidationIssue } from '../../schema/errors';
import { decodeCursor, type DecodedCursor } from '../../schema/list-cursor';
import { CONNECTION_DEFAULTS, type ConnectionArgs } from './connection';

/**
 * The kinds of sort key value a keyset cursor may hold, each checked before it reaches SQL. `date`
 * is a Date of millisecond precision (what the entities write); `instant` is ISO 8601 text with
 * PostgreSQL's microseconds, for a column that SQL's now() fills, read as text so that no row in
 * the same millisecond is skipped.
 */
export type SortKeyKind = 'text' | 'number' | 'date' | 'instant' | 'uuid' | 'integer';

/** One column of a list's order: the tie-breaking id is always the last key. */
export interface SortKey<Row> {
  /** The entity property (MikroORM lists) or the SQL expression (lists read by statement). */
  field: string;
  direction: 'asc' | 'desc';
  kind: SortKeyKind;
  /** The key may be NULL. NULLs sort as PostgreSQL sorts them by default (after every value ascending, before every value descending) unless `nullsLast`. */
  nullable?: boolean;
  /** NULLs after every value whichever the direction (`NULLS LAST`), as some lists have always sorted. */
  nullsLast?: boolean;
  /** The key's value on a row read. */
  value: (row: Row) => unknown;
}

/** Which rows of the ordered list one request asks for, from its connection arguments. */
export interface ListWindow {
  /** Rows wanted. */
  limit: number;
  /** `last`: read from the end of the window backwards. */
  backward: boolean;
  /** Keyset values rows must follow / precede (ids last), when a keyset cursor was given. */
  after: unknown[] | null;
  before: unknown[] | null;
  /** Rows to skip from the start of the list, when an offset cursor was given (after) or computed (before). */
  offset: number;
  /** `before` was an offset cursor: the window ends there. */
  offsetEnd: number | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function validValue(kind: SortKeyKind, value: unknown): boolean {
  switch (kind) {
    case 'text':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'date':
    case 'instant':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value));
    case 'uuid':
      return typeof value === 'string' && UUID.test(value);
    case 'integer':
      return (typeof value === 'string' && /^-?\d{1,19}$/.test(value)) || Number.isSafeInteger(value);
  }
}

/** Decoded keyset values that fit the list's keys (count, kinds, NULLs only where nullable), dates as Dates; else null. */
function keysetValues(cursor: DecodedCursor, keys: SortKey<never>[]): unknown[] | null {
  if (cursor.kind !== 'keyset' || cursor.values.length !== keys.length) return null;
  const ok = keys.every((key, i) => (cursor.values[i] === null ? key.nullable === true : validValue(key.kind, cursor.values[i])));
  return ok ? keys.map((key, i) => (key.kind === 'date' && cursor.values[i] !== null ? new Date(cursor.values[i] as string) : cursor.values[i])) : null;
}

function countIssue(name: 'first' | 'last', value: number | null | undefined, issues: ValidationIssue[]): void {
  if (value === null || value === undefined) return;
  if (value < 0) issues.push({ type: 'greater_than_equal', loc: [name], msg: 'Input should be greater than or equal to 0', input: value, ctx: { ge: 0 } });
  else if (value > CONNECTION_DEFAULTS.maxFirst) {
    issues.push({ type: 'less_than_equal', loc: [name], msg: `Input should be less than or equal to ${CONNECTION_DEFAULTS.maxFirst}`, input: value, ctx: { le: CONNECTION_DEFAULTS.maxFirst } });
  }
}

const valueIssue = (loc: string, reason: string, input: unknown): ValidationIssue => ({ type: 'value_error', loc: [loc], msg: `Value error, ${reason}`, input, ctx: { error: reason } });

/**
 * Reads and checks a list's connection arguments against its sort keys (a keyset cursor of another
 * list or order is refused as malformed): BAD_USER_INPUT, every problem at once, for first with
 * last, a count outside 0..100, a cursor that is not one of this list's, an offset cursor beside another cursor.
 */
export function listWindow(args: ConnectionArgs, keys: SortKey<never>[]): ListWindow {
  const issues: ValidationIssue[] = [];
  if (args.first != null && args.last != null) issues.push(valueIssue('last', 'first and last cannot be used together', args.last));
  countIssue('first', args.first, issues);
  countIssue('last', args.last, issues);
  const read = (name: 'after' | 'before'): DecodedCursor | null => {
    const text = args[name];
    if (text == null) return null;
    const cursor = decodeCursor(text);
    if (!cursor || (cursor.kind === 'keyset' && !keysetValues(cursor, keys))) issues.push(valueIssue(name, 'not a cursor of this list (cursors are opaque: use an edge cursor or pageInfo cursor of the same list and order)', text));
    return cursor;
  };
  const after = read('after');
  const before = read('before');
  if ((after?.kind === 'offset' && before) || (before?.kind === 'offset' && after)) issues.push(valueIssue('before', 'an offset cursor cannot be combined with another cursor', args.before));
  if (issues.length) throw new ValidationError(issues);

  const backward = args.last != null;
  const limit = args.first ?? args.last ?? CONNECTION_DEFAULTS.first;
  const window: ListWindow = { limit, backward, after: null, before: null, offset: 0, offsetEnd: null };
  if (after?.kind === 'offset') window.offset = after.offset;
  else if (after) window.after = keysetValues(after, keys);
  if (before?.kind === 'offset') window.offsetEnd = before.offset;
  else if (before) window.before = keysetValues(before, keys);
  return window;
}

/** The usual order of an entity list: one property (read from the row by its name) in `direction`, then the id the same way. */
export function byFieldThenId<Row extends { id: string }>(field: keyof Row & string, kind: SortKeyKind, direction: 'asc' | 'desc', nullable = false): SortKey<Row>[] {
  return [
    { field, direction, kind, nullable, value: (row) => row[field] },
    { field: 'id', direction, kind: 'uuid', value: (row) => row.id },
  ];
}
