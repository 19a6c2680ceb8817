/**
 * The opaque cursors of the graph's connections (docs/api.md, "Pagination"), shared by the subgraphs
 * that read them and the REST bridge that writes offset cursors for `page`/`per_page`.
 *
 * Two forms, both base64url text a client must not take apart:
 * - a keyset cursor, `k:<JSON array of the list's sort key values, id last>`: what every edge carries.
 *   Paging on from it asks for the rows strictly after (or before) those values, so rows inserted or
 *   deleted meanwhile neither shift the next page nor make it repeat or skip rows.
 * - an offset cursor, `offset:<n>`: "after the first n rows". The bridge maps page N to
 *   `after: offsetCursor((N - 1) * perPage)`, as page numbers have always meant.
 */

/** Default and largest `first`/`last` of every connection on the graph, shared with the gateway's cost estimate. */
export const CONNECTION_PAGE = { first: 20, max: 100 } as const;

/** What a cursor says once decoded; `null` when the text is not a cursor of either form. */
export type DecodedCursor = { kind: 'offset'; offset: number } | { kind: 'keyset'; values: unknown[] };

const OFFSET_PREFIX = 'offset:';
const KEYSET_PREFIX = 'k:';

const encode = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

/** The cursor meaning "after the first `offset` rows" (an offset from 0). */
export function offsetCursor(offset: number): string {
  if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError(`offset must be a whole number from 0, got ${offset}`);
  return encode(`${OFFSET_PREFIX}${offset}`);
}

/** The cursor of a row at these sort key values (id last); dates are written as ISO 8601 text. */
export function keysetCursor(values: unknown[]): string {
  return encode(KEYSET_PREFIX + JSON.stringify(values.map((value) => (value instanceof Date ? value.toISOString() : value))));
}

/** Reads a cursor of either form, or null when it is neither (never throws on client text). */
export function decodeCursor(cursor: string): DecodedCursor | null {
  if (!/^[A-Za-z0-9_-]{1,2000}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (text.startsWith(OFFSET_PREFIX)) {
    const digits = text.slice(OFFSET_PREFIX.length);
    const offset = Number(digits);
    return /^(0|[1-9]\d{0,14})$/.test(digits) && Number.isSafeInteger(offset) ? { kind: 'offset', offset } : null;
  }
  if (!text.startsWith(KEYSET_PREFIX)) return null;
  try {
    const values: unknown = JSON.parse(text.slice(KEYSET_PREFIX.length));
    return Array.isArray(values) ? { kind: 'keyset', values } : null;
  } catch {
    return null;
  }
}
