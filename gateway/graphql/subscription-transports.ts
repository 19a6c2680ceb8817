import { subscribe, validate, type ExecutionResult } from 'graphql';
import { createClient, NetworkError } from 'graphql-sse';
import { ServiceUnavailableError } from '../../schema/errors';
import type { OperationResult, RequestContext } from '../../schema/request-context';
import { cancellableEvents } from '../../platform/cancellable-events';
import { identityHeaders } from './identity-headers';
import { formatResult } from '../../platform/format-error';
import type { SubgraphName } from '../../platform/subgraph-definition';
import type { RunningSubgraph } from '../../platform/subgraph-runtime';
import type { SubscriptionEvents, SubscriptionTransport } from './subscription-router';
import type { SubgraphUrls } from '../subgraph-urls';

/** A subscription that ends after one result (a refusal). */
function single(result: OperationResult): SubscriptionEvents {
  let sent = false;
  return cancellableEvents<OperationResult>(async () => (sent ? { done: true, value: undefined } : ((sent = true), { done: false, value: result })), async () => undefined);
}

/** Upper bound of remembered validations; past it they start over. */
const MAX_VALIDATED = 1_000;

/**
 * All-in-one: graphql-js `subscribe` on the owning subgraph's schema, with that subgraph's context
 * for this request; results get the subgraph's error mapping (domain codes kept, anything else a
 * logged generic 500).
 */
export function inProcessTransport(subgraphs: readonly RunningSubgraph[]): SubscriptionTransport {
  const invalid = new Map<string, OperationResult | null>();
  return {
    async open(owner, request, ctx) {
      const subgraph = subgraphs.find((s) => s.name === owner)!;
      // The edge validated on the API schema; a selection only another subgraph can resolve fails here.
      const key = `${owner}\n${request.query}`;
      let refusal = invalid.get(key);
      if (refusal === undefined) {
        const problems = validate(subgraph.schema, request.document);
        refusal = problems.length ? { errors: problems.map((p) => ({ message: p.message, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })) } : null;
        if (invalid.size >= MAX_VALIDATED) invalid.clear();
        invalid.set(key, refusal);
      }
      if (refusal) return single(refusal);
      const format = (result: ExecutionResult): OperationResult => {
        const formatted = formatResult(result, (error, requestId) => ctx.log.error({ err: error, requestId }, 'subscription failed'), ctx.requestId);
        return { data: formatted.data as OperationResult['data'], errors: formatted.errors?.map((e) => e.toJSON()) };
      };
      const result = await subscribe({
        schema: subgraph.schema,
        document: request.document,
        operationName: request.operationName,
        variableValues: request.variables,
        contextValue: subgraph.context({ tenantId: ctx.tenantId, requestId: ctx.requestId, actor: ctx.actor, clientAddress: ctx.clientAddress }),
      });
      if (!(Symbol.asyncIterator in result)) return single(format(result));
      const source = result[Symbol.asyncIterator]();
      return cancellableEvents<OperationResult>(
        async () => {
          const next = await source.next();
          return next.done ? { done: true, value: undefined } : { done: false, value: format(next.value) };
        },
        async () => void (await source.return?.()),
      );
    },
  };
}

/** A subgraph that did not answer as one: the cause stays in the log, the client is told to retry. */
const unavailable = (owner: SubgraphName, why: string) => new ServiceUnavailableError('Subgraph unavailable', 5, { cause: new Error(`subgraph ${owner} ${why}`) });

/** The `errors` of a refused upstream request's JSON body, if it has any. */
async function refusalOf(response: Response): Promise<OperationResult | null> {
  const body = (await response.json().catch(() => null)) as { errors?: unknown } | null;
  return Array.isArray(body?.errors) && body.errors.length > 0 ? { errors: body.errors as OperationResult['errors'] } : null;
}

/**
 * Distributed: the owning subgraph's `/graphql/stream` over HTTP, read with graphql-sse's own
 * client (distinct connections, no retries), carrying the identity headers and the shared secret
 * as every gateway call does. It resolves once the subgraph answered: a refusal (4xx with GraphQL
 * errors) becomes one result; no answer at all is a ServiceUnavailableError. `return()` aborts
 * the request, which cancels the subgraph's stream and its provider's work.
 */
export function httpTransport(urls: SubgraphUrls, secret: string): SubscriptionTransport {
  const turns = new Map<SubgraphName, number>();
  return {
    async open(owner, request, ctx: RequestContext) {
      // The owner's replicas in turn (SUBGRAPH_<NAME>_URL lists them); one that cannot be reached passes the subscription to the next.
      const replicas = urls[owner]!;
      const turn = turns.get(owner) ?? 0;
      turns.set(owner, (turn + 1) % replicas.length);
      const order = [...replicas.slice(turn), ...replicas.slice(0, turn)];
      for (const [index, base] of order.entries()) {
        try {
          return await openOn(base, owner, request, ctx, secret);
        } catch (error) {
          // Nothing reached the replica: opening the subscription on another is safe.
          if (!(error instanceof ReplicaUnreachable) || index === order.length - 1) throw error;
        }
      }
      throw unavailable(owner, 'has no replica');
    },
  };
}

/** No replica answered the subscription's request at all (connection refused, reset). */
class ReplicaUnreachable extends ServiceUnavailableError {}

/** Opens a subscription on one replica of the owning subgraph service. */
async function openOn(base: string, owner: SubgraphName, request: Parameters<SubscriptionTransport['open']>[1], ctx: RequestContext, secret: string): Promise<SubscriptionEvents> {
  let answered: (response: Response | null) => void = () => undefined;
  const answer = new Promise<Response | null>((resolve) => (answered = resolve));
  const client = createClient({
    url: new URL('/graphql/stream', base).toString(),
    headers: identityHeaders(ctx, secret),
    retryAttempts: 0,
    fetchFn: (input: string | URL, init?: RequestInit) =>
      fetch(input, init).then(
        (response) => (answered(response), response),
        (error) => (answered(null), Promise.reject(error)),
      ),
  });
  const results = client.iterate({ query: request.query, variables: request.variables ?? undefined, operationName: request.operationName ?? undefined });
  let finished = false;
  const finish = async () => {
    if (finished) return;
    finished = true;
    await results.return?.();
    client.dispose();
  };
  // The client connects on the first next(); keep that call, and wait for the subgraph's answer (or the first event).
  const first = results.next();
  first.catch(() => undefined);
  const response = await Promise.race([answer, first.then(() => undefined, () => undefined)]);
  if (response === null) {
    await finish();
    throw new ReplicaUnreachable('Subgraph unavailable', 5, { cause: new Error(`subgraph ${owner} unreachable at ${base}`) });
  }
  if (response && !response.ok) {
    const refusal = await refusalOf(response);
    await finish();
    if (refusal) return single(refusal);
    throw unavailable(owner, `answered ${response.status}`);
  }
  let pending: typeof first | null = first;
  return cancellableEvents<OperationResult>(
    async () => {
      const next = pending ?? results.next();
      pending = null;
      try {
        const result = await next;
        if (result.done) await finish();
        return result.done ? { done: true, value: undefined } : { done: false, value: result.value as unknown as OperationResult };
      } catch (error) {
        await finish();
        if (error instanceof NetworkError) throw unavailable(owner, error.message);
        throw error;
      }
    },
    finish,
  );
}
