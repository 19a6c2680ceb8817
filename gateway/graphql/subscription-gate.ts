import { parse, specifiedRules, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { MissingScopeError, ServiceUnavailableError } from '../../schema/errors';
import type { OperationResult, RequestContext } from '../../schema/request-context';
import type { Grants } from '../../schema/scopes';
import { cancellableEvents } from '../../platform/cancellable-events';
import type { PhiMask } from '../access/phi-mask';
import type { ScopeCheck } from '../access/scope-check';
import type { GraphQLLimits } from '../config-readers';
import { subscriptionRequests, subscriptionsOpen } from '../metrics/instruments';
import { selectOperation } from './graphql-cost';
import { armorProtection, parseTokenLimit, withoutSuggestions } from './graphql-limits';
import { operationTextIssues, surrogateLiteralError, textRuleError } from './graphql-text-rule';
import { StreamSlots } from './stream-slots';
import { subscriptionField, type SubscriptionEvents, type SubscriptionRouter } from './subscription-router';

/** A subscription refused before it opened: the HTTP status graphql-sse answers with, and the one GraphQL error both transports send. */
export interface SubscriptionRefusal {
  status: number;
  message: string;
  extensions: Record<string, unknown>;
}

/** What a client sent to subscribe, in either transport. */
export interface SubscriptionParams {
  query: unknown;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

/** The transports, as the metrics label them. */
export type SubscriptionTransportName = 'sse' | 'ws';

/** The one way a client's subscription opens, for `/graphql/stream` (graphql-sse) and `/graphql` (graphql-ws) alike. */
export interface SubscriptionGate {
  /** Checks and opens a subscription for an authenticated context: its events, or why not. */
  open(params: SubscriptionParams, ctx: RequestContext, transport: SubscriptionTransportName): Promise<{ refused: SubscriptionRefusal } | { events: SubscriptionEvents; document: DocumentNode }>;
  /** The API schema subscriptions are validated on. */
  readonly schema: GraphQLSchema;
  /** The per-tenant caps shared by both transports (open subscriptions; graphql-ws connections). */
  readonly slots: { streams: StreamSlots; connections: StreamSlots };
}

const refusal = (status: number, message: string, extensions: Record<string, unknown>) => ({ refused: { status, message, extensions } });

/** A subscription that passed the checks of `/graphql`: parsed, with its root field. */
interface CheckedSubscription {
  document: DocumentNode;
  field: string;
}

/**
 * The checks `/graphql` makes, for subscriptions: the token limit while parsing, validation on the
 * API schema (only for root fields some subgraph owns), with GraphQL Armor's depth, alias,
 * directive and cost rules, and the text rule over literals and variables.
 */
function subscriptionChecker(limits: GraphQLLimits, apiSchema: GraphQLSchema, owned: (field: string) => boolean) {
  const rules = [...specifiedRules, ...armorProtection(limits).validationRules];
  return (query: unknown, operationName: string | null | undefined, variables: unknown): CheckedSubscription | { refused: SubscriptionRefusal } => {
    let document: DocumentNode;
    try {
      document = parse(String(query ?? ''), parseTokenLimit(limits));
    } catch (error) {
      const parseFailed = { message: (error as Error).message, extensions: { code: 'GRAPHQL_PARSE_FAILED' } };
      const surrogate = surrogateLiteralError(parseFailed, error);
      return surrogate ? refusal(400, surrogate.message, surrogate.extensions!) : refusal(400, parseFailed.message, parseFailed.extensions);
    }
    const field = subscriptionField(document, operationName);
    if (typeof field !== 'string') return refusal(400, field.error, { code: 'BAD_REQUEST' });
    if (!owned(field)) return refusal(400, `Unknown subscription field "${field}"`, { code: 'GRAPHQL_VALIDATION_FAILED' });
    const problems = validate(apiSchema, document, rules);
    if (problems.length > 0) {
      return refusal(400, problems.map((p) => withoutSuggestions(limits, p.message)).join('; '), { code: 'GRAPHQL_VALIDATION_FAILED' });
    }
    const issues = operationTextIssues(document, variables);
    if (issues.length > 0) {
      const { message, extensions } = textRuleError(issues);
      const { http: _http, ...rest } = extensions;
      return refusal(400, message, rest);
    }
    return { document, field };
  };
}

/** The 403 of a caller whose scopes do not reach the subscription (the one scope check, docs/access.md); null when they do. */
function scopeRefusal(scopes: ScopeCheck, document: DocumentNode, operationName: string | null | undefined, granted: Grants | undefined) {
  const operation = selectOperation(document, operationName);
  if (!operation) return null;
  try {
    scopes.authorize(document, operation, granted ?? null);
    return null;
  } catch (error) {
    if (!(error instanceof MissingScopeError)) throw error;
    return refusal(403, error.message, { code: error.code, ...error.extensions() });
  }
}

/**
 * Checks a subscription as `/graphql` checks operations, then the caller's scopes, then takes one
 * of the tenant's stream slots (GRAPHQL_MAX_STREAMS_PER_TENANT, shared by both transports), and
 * opens it through the subscription router on the subgraph that owns it (in-process or over
 * HTTP). Every event's patient fields are masked as `/graphql`'s are (reads are audited where they
 * resolve, in the subgraph). The slot is given back when the events end, fail or are cancelled.
 */
export function subscriptionGate(router: SubscriptionRouter, limits: GraphQLLimits, apiSchema: GraphQLSchema, scopes: ScopeCheck, mask: PhiMask): SubscriptionGate {
  const slots = { streams: new StreamSlots(limits.maxStreamsPerTenant), connections: new StreamSlots(limits.maxStreamsPerTenant) };
  const check = subscriptionChecker(limits, apiSchema, (field) => router.ownerOf(field) !== undefined);
  return {
    slots,
    schema: apiSchema,
    async open(params, ctx, transport) {
      const checked = check(params.query, params.operationName, params.variables);
      const refused = 'refused' in checked ? checked : scopeRefusal(scopes, checked.document, params.operationName, ctx.scopes);
      if (refused) {
        subscriptionRequests.inc({ transport, outcome: 'refused' });
        return refused;
      }
      const { document, field } = checked as CheckedSubscription;
      const release = ctx.tenantId ? slots.streams.take(ctx.tenantId) : () => undefined;
      if (!release) {
        subscriptionRequests.inc({ transport, outcome: 'limited' });
        return refusal(429, `This tenant has ${slots.streams.max} subscriptions open, the most it may; close one first`, { code: 'RATE_LIMITED' });
      }
      let events: SubscriptionEvents;
      try {
        events = await router.open({ query: String(params.query), document, variables: params.variables, operationName: params.operationName }, field, ctx);
      } catch (error) {
        release();
        subscriptionRequests.inc({ transport, outcome: 'refused' });
        if (!(error instanceof ServiceUnavailableError)) throw error;
        ctx.log.warn({ err: error }, 'subscription not opened');
        return refusal(502, error.message, { code: error.code });
      }
      subscriptionRequests.inc({ transport, outcome: 'opened' });
      const operation = selectOperation(document, params.operationName)!;
      // Minimum necessary, as on `/graphql`: an event's patient fields are masked for a caller without `patients:read`.
      const masked = (result: OperationResult) => (mask.apply(document, operation, result.data as Record<string, unknown> | null | undefined, ctx.scopes), result);
      return { events: held(events, masked, release, transport), document };
    },
  };
}

/** The events, each through `each`, counted open until they end, fail or are cancelled, when the slot goes back. */
function held(events: SubscriptionEvents, each: (result: OperationResult) => OperationResult, release: () => void, transport: SubscriptionTransportName): SubscriptionEvents {
  subscriptionsOpen.inc({ transport });
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    release();
    subscriptionsOpen.dec({ transport });
  };
  return cancellableEvents(
    async () => {
      try {
        const next = await events.next();
        if (next.done) end();
        return next.done ? next : { done: false, value: each(next.value) };
      } catch (error) {
        end();
        throw error;
      }
    },
    async () => {
      end();
      await events.return();
    },
  );
}
