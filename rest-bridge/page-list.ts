import { Kind, parse, type OperationDefinitionNode, type VariableDefinitionNode } from 'graphql';
import { ValidationError, type ValidationIssue } from '../schema/errors';
import { offsetCursor } from '../schema/list-cursor';
import type { OperationResult } from '../schema/request-context';
import type { JsonSchema } from './json-schema';
import { relocate } from './validation-error';
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
  /** What is wrong with them, in the variables' terms; none for a page the graph is asked for. */
  issues: ValidationIssue[];
}

/** Page numbers and sizes as the contract bounds them (docs/decisions.md, Conventions). */
export const REST_PAGE = { page: 1, perPage: 20, maxPerPage: 100 } as const;

/** `$page: Int = 1`: declared for the bridge alone (the graph has no page argument), so that `page` is coerced and documented as before. */
const PAGE_VARIABLE: VariableDefinitionNode = (parse(`query P($page: Int = ${REST_PAGE.page}) { __typename }`, { noLocation: true }).definitions[0] as OperationDefinitionNode).variableDefinitions![0];

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

/**
 * Takes `page` out of a paged route's coerced variables and sets `after` to the offset cursor of
 * that page. A page below 1 or a page size outside 1..100 is not refused at once: the request runs
 * on the first page of 20 and `pageResult` reports these issues after the request's own (the
 * contract's 422 lists every problem of the request, Pydantic's range messages, page first).
 */
export function pageVariables(variables: Record<string, unknown>): PageRequest {
  const page = (variables[VARIABLES.page] as number | null | undefined) ?? REST_PAGE.page;
  const perPage = (variables[VARIABLES.perPage] as number | null | undefined) ?? REST_PAGE.perPage;
  delete variables[VARIABLES.page];
  // Issues located as the variables they came from (relocate() writes them `["query", "per_page"]`).
  const issues: ValidationIssue[] = [];
  if (page < 1) issues.push({ type: 'greater_than_equal', loc: [VARIABLES.page], msg: 'Input should be greater than or equal to 1', input: page, ctx: { ge: 1 } });
  if (perPage < 1) {
    issues.push({ type: 'greater_than_equal', loc: [VARIABLES.perPage], msg: 'Input should be greater than or equal to 1', input: perPage, ctx: { ge: 1 } });
  } else if (perPage > REST_PAGE.maxPerPage) {
    issues.push({ type: 'less_than_equal', loc: [VARIABLES.perPage], msg: `Input should be less than or equal to ${REST_PAGE.maxPerPage}`, input: perPage, ctx: { le: REST_PAGE.maxPerPage } });
  }
  if (issues.length) {
    variables[VARIABLES.perPage] = REST_PAGE.perPage;
    return { page, perPage, issues };
  }
  variables[VARIABLES.perPage] = perPage;
  // Both are GraphQL Ints: the offset stays far below 2^53.
  if (page > 1) variables[VARIABLES.after] = offsetCursor((page - 1) * perPage);
  return { page, perPage, issues };
}

/**
 * A paged route's result with its page's issues: added after the request's own when the graph
 * refused it with BAD_USER_INPUT, else a refusal of their own (a ValidationError in the request's
 * terms, as `relocate` locates the graph's).
 */
export function pageResult(route: RouteDefinition, result: OperationResult, request: PageRequest): OperationResult {
  if (!request.issues.length) return result;
  const [first, ...rest] = result.errors ?? [];
  const own = first?.extensions?.code === 'BAD_USER_INPUT' && Array.isArray(first.extensions.validation) ? (first.extensions.validation as ValidationIssue[]) : null;
  if (!own) throw new ValidationError(relocate(request.issues, route));
  const issues = [...own, ...request.issues];
  return { data: null, errors: [{ ...first, message: issues.map((issue) => issue.msg).join('; '), extensions: { ...first.extensions, validation: issues } }, ...rest] };
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

