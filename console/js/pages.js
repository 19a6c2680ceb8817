// The graph pages its lists by cursor (docs/api.md, "Pagination"); the console's lists keep page
// numbers, which the graph takes as an offset cursor, as the REST bridge does (schema/list-cursor.ts).

/** The cursor meaning "after the first n rows": base64url of `offset:n` (no padding). */
export function offsetCursor(n) {
  return btoa(`offset:${n}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** `first`/`after` of page `page` (from 1) of `perPage` rows; no cursor for the first page. */
export function pageWindow(page, perPage) {
  return { first: perPage, after: page > 1 ? offsetCursor((page - 1) * perPage) : null };
}

/** A connection's `{nodes, totalCount}` as the page the views draw: `{items, total, page, perPage, pages}`. */
export function pageOf(connection, page, perPage) {
  return { items: connection.nodes, total: connection.totalCount, page, perPage, pages: Math.ceil(connection.totalCount / perPage) };
}
