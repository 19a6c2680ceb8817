import { offsetCursor } from '../../schema/list-cursor';

/** A page as the REST envelope writes it, for tests that read a graph connection by page number. */
export interface TestPage<T> {
  items: T[];
  total: number;
  page: number;
  perPage: number;
  pages: number;
}

/**
 * Turns `page`/`perPage` in a test's variables into a connection's `first`/`after` (an offset
 * cursor, as the REST bridge asks), leaving the other variables as they are.
 */
export function pageVariables(variables: Record<string, unknown>): Record<string, unknown> {
  const { page = 1, perPage, ...rest } = variables as { page?: number; perPage?: number };
  const size = perPage ?? 20;
  return { ...rest, first: size, after: page > 1 ? offsetCursor((page - 1) * size) : null };
}

/** A connection's `{nodes, totalCount}` as the page envelope of `variables`' page. */
export function asPage<T>(connection: { nodes: T[]; totalCount: number }, variables: Record<string, unknown> = {}): TestPage<T> {
  const page = (variables.page as number | undefined) ?? 1;
  const perPage = (variables.perPage as number | undefined) ?? 20;
  return { items: connection.nodes, total: connection.totalCount, page, perPage, pages: Math.ceil(connection.totalCount / perPage) };
}
