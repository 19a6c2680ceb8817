import { STATUS_CODES } from 'node:http';
import { parse, specifiedRules, validate, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/express';
import { MissingScopeError, ServiceUnavailableError } from '../../schema/errors';
import type { ScopeCheck } from '../access/scope-check';
import { selectOperation } from './graphql-cost';
import type { GraphQLLimits } from '../config';
import { armorProtection, parseTokenLimit, withoutSuggestions } from './graphql-limits';
import { operationTextIssues, surrogateLiteralError, textRuleError } from './graphql-text-rule';
import { contextOf } from '../http/request-context';
import type { Grants } from '../../schema/scopes';
import { subscriptionField, type SubscriptionRouter } from './subscription-router';

/** graphql-sse's response tuple for a refused subscription. */
type Rejection = [string, { status: number; statusText: string; headers: Record<string, string> }];

/**
 * A graphql-sse rejection: a JSON error body with a code. The status line carries the status's
 * fixed reason phrase, never the message: node refuses a non-Latin-1 character there, which
 * turned the refusal into a 500 HTML page.
 */
const reject = (status: number, message: string, extensions: Record<string, unknown>): Rejection => [
  JSON.stringify({ errors: [{ message, extensions }] }),
  { status, statusText: STATUS_CODES[status] ?? 'Error', headers: { 'content-type': 'application/json; charset=utf-8' } },
];

/** A subscription that passed the checks of `/graphql`: parsed, with its root field and the schema it was validated on. */
interface CheckedSubscription {
  document: DocumentNode;
  field: string;
  schema: GraphQLSchema;
}

/**
 * The checks `/graphql` makes, for `/graphql/stream`: the token limit while parsing, validation on
 * the schema `schemaFor` gives for the root field, with GraphQL Armor's depth, alias, directive
 * and cost rules, and the text rule over literals and variables.
 */
function subscriptionChecker(limits: GraphQLLimits, schemaFor: (field: string) => GraphQLSchema | undefined) {
  const rules = [...specifiedRules, ...armorProtection(limits).validationRules];
  return (query: unknown, operationName: string | null | undefined, variables: unknown): CheckedSubscription | Rejection => {
    let document: DocumentNode;
    try {
      document = parse(String(query ?? ''), parseTokenLimit(limits));
    } catch (error) {
      const parseFailed = { message: (error as Error).message, extensions: { code: 'GRAPHQL_PARSE_FAILED' } };
      const surrogate = surrogateLiteralError(parseFailed, error);
      return surrogate ? reject(400, surrogate.message, surrogate.extensions!) : reject(400, parseFailed.message, parseFailed.extensions);
    }
    const field = subscriptionField(document, operationName);
    if (typeof field !== 'string') return reject(400, field.error, { code: 'BAD_REQUEST' });
    const schema = schemaFor(field);
    if (!schema) return reject(400, `Unknown subscription field "${field}"`, { code: 'GRAPHQL_VALIDATION_FAILED' });
    const problems = validate(schema, document, rules);
    if (problems.length > 0) {
      return reject(400, problems.map((p) => withoutSuggestions(limits, p.message)).join('; '), { code: 'GRAPHQL_VALIDATION_FAILED' });
    }
    const issues = operationTextIssues(document, variables);
    if (issues.length > 0) {
      const { message, extensions } = textRuleError(issues);
      const { http: _http, ...rest } = extensions;
      return reject(400, message, rest);
    }
    return { document, field, schema };
  };
}

/**
 * `/graphql/stream`, in both run modes: graphql-sse's distinct-connection mode (no reservation
 * tokens, so streams never cross tenants). A subscription is checked as `/graphql` checks
 * operations, on the gateway's API schema, then opened through the subscription router on the
 * subgraph that owns it (in-process or over HTTP); results arrive already in their client form.
 */
export function streamHandler(router: SubscriptionRouter, limits: GraphQLLimits, apiSchema: GraphQLSchema, scopes: ScopeCheck) {
  const check = subscriptionChecker(limits, (field) => (router.ownerOf(field) ? apiSchema : undefined));
  return createHandler({
    authenticate: () => null,
    onSubscribe: async (req, params) => {
      const checked = check(params.query, params.operationName, params.variables);
      if (Array.isArray(checked)) return checked;
      const refusal = scopeRefusal(scopes, checked.document, params.operationName, contextOf(req.context.res).scopes);
      if (refusal) return refusal;
      const request = { query: String(params.query), document: checked.document, variables: params.variables, operationName: params.operationName };
      try {
        // Results are already formatted for clients (plain errors, no GraphQLError instances); graphql-sse only serialises them.
        return (await router.open(request, checked.field, contextOf(req.context.res))) as AsyncIterable<ExecutionResult>;
      } catch (error) {
        if (!(error instanceof ServiceUnavailableError)) throw error;
        contextOf(req.context.res).log.warn({ err: error }, 'subscription not opened');
        return reject(502, error.message, { code: error.code });
      }
    },
  });
}

/** The 403 of a caller whose scopes do not reach the subscription (the one scope check, docs/access.md); null when they do. */
function scopeRefusal(scopes: ScopeCheck, document: DocumentNode, operationName: string | null | undefined, granted: Grants | undefined): Rejection | null {
  const operation = selectOperation(document, operationName);
  if (!operation) return null;
  try {
    scopes.authorize(document, operation, granted ?? null);
    return null;
  } catch (error) {
    if (!(error instanceof MissingScopeError)) throw error;
    return reject(403, error.message, { code: error.code, ...error.extensions() });
  }
}
