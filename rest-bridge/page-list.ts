import { Kind, parse, type OperationDefinitionNode, type VariableDefinitionNode } from 'graphql';
import { ValidationError, type ValidationIssue } from '../schema/errors';
import { offsetCursor } from '../schema/list-cursor';
import type { JsonSchema } from './json-schema';
import type { RouteDefinition } from './types';

/**
 * REST lists keep page numbers (contract part 4.2: `page`, `per_page`, the page envelope) while the
 * graph pages by cursor (docs/api.md, "Pagination"). A paged route's document asks its connection
 * for `first: $perPage, after: $after` and selects `nodes` and `totalCount`; the bridge reads `page`
 * itself, turns it into an offset cursor, and builds the envelope from the connection.
 */

/** The page size and number a REST list request asked for. */
export interface PageRequest {
  page: number;
  perPage: number;
}

/** Page numbers and sizes as the contract bounds them (docs/decisions.md, Conventions). */
export const REST_PAGE = { page: 1, perPage: 20, maxPerPage: 100 } as const;

/** `$page: Int = 1`: declared for the bridge alone (the graph has no page argument), so that `page` is coerced and documented as before. */
const PAGE_VARIABLE: VariableDefinitionNode = (parse(`query P($page: Int = ${REST_PAGE.page}) { __typename }`).definitions[0] as OperationDefinitionNode).variableDefinitions![0];

/** The variable names of a paged route: `page` is the bridge's, `perPage` and `after` feed the connection's `first` and `after`. */
const VARIABLES = { page: 'page', perPage: 'perPage', after: 'after' } as const;

/** The operation as the bridge coerces and documents a paged route's request: with `$page` declared. */
export function withPageVariable(route: RouteDefinition, operation: OperationDefinitionNode): OperationDefinitionNode {
  if (!route.paged) return operation;
  if (operation.variableDefinitions?.some((definition) => definition.variable.name.value === VARIABLES.page)) {
    throw new Error(`${route.operationId}: a paged route's document must not declare $page (the graph has no page argument)`);
  }
  return { ...operation, kind: Kind.OPERATION_DEFINITION, variableDefinitions: [...(operation.variableDefinitions ?? []), PAGE_VARIABLE] };
}

/** The REST name a variable came from (`per_page` for `perPage`), for a 422's location. */
function restName(route: RouteDefinition, variable: string): string {
  return Object.entries(route.queryParams ?? {}).find(([, name]) => name === variable)?.[0] ?? variable;
}

/**
 * Takes `page` out of a paged route's coerced variables and sets `after` to the offset cursor of
 * that page; refuses a page below 1 or a page size outside 1..100 with the 422s the contract has
 * always given (Pydantic's range messages, page first). Returns the page asked for.
 */
export function pageVariables(route: RouteDefinition, variables: Record<string, unknown>): PageRequest {
  const page = (variables[VARIABLES.page] as number | null | undefined) ?? REST_PAGE.page;
  const perPage = (variables[VARIABLES.perPage] as number | null | undefined) ?? REST_PAGE.perPage;
  delete variables[VARIABLES.page];
  const issues: ValidationIssue[] = [];
  if (page < 1) issues.push({ type: 'greater_than_equal', loc: ['query', restName(route, VARIABLES.page)], msg: 'Input should be greater than or equal to 1', input: page, ctx: { ge: 1 } });
  if (perPage < 1) {
    issues.push({ type: 'greater_than_equal', loc: ['query', restName(route, VARIABLES.perPage)], msg: 'Input should be greater than or equal to 1', input: perPage, ctx: { ge: 1 } });
  } else if (perPage > REST_PAGE.maxPerPage) {
    issues.push({
      type: 'less_than_equal',
      loc: ['query', restName(route, VARIABLES.perPage)],
      msg: `Input should be less than or equal to ${REST_PAGE.maxPerPage}`,
      input: perPage,
      ctx: { le: REST_PAGE.maxPerPage },
    });
  }
  if (issues.length) throw new ValidationError(issues);
  // Both are GraphQL Ints: the offset stays far below 2^53.
  if (page > 1) variables[VARIABLES.after] = offsetCursor((page - 1) * perPage);
  variables[VARIABLES.perPage] = perPage;
  return { page, perPage };
}

/** What a paged route's `result` picks out of `data`: its connection's nodes and count. */
export interface ListAnswer {
  nodes: unknown[];
  totalCount: number;
}

/** The REST body of a paged route: the page envelope `{items, total, page, perPage, pages}`, or the bare items where the contract wants an array. */
export function pageBody(route: RouteDefinition, list: ListAnswer, request: PageRequest): unknown {
  if (route.paged === 'items') return list.nodes;
  return { items: list.nodes, total: list.totalCount, page: request.page, perPage: request.perPage, pages: Math.ceil(list.totalCount / request.perPage) };
}

/**
 * The OpenAPI body of an envelope route, from the schema of its connection's selection: the nodes
 * become `items`, beside the envelope's integers, as the page type described them before the graph
 * had connections (the REST contract does not change with the graph).
 */
export function pageSchema(connection: JsonSchema): JsonSchema {
  const { description: _description, ...items } = (connection as { properties: Record<string, JsonSchema> }).properties.nodes;
  const properties = {
    items,
    total: { type: 'integer', description: 'Items across all pages' },
    page: { type: 'integer' },
    perPage: { type: 'integer' },
    pages: { type: 'integer', description: 'Number of pages' },
  };
  return { type: 'object', properties, required: Object.keys(properties) };
}

