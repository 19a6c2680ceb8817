import { parse, subscribe, validate, type DocumentNode, type ExecutionResult } from 'graphql';
import { createClient } from 'graphql-sse';
import type { SubscriptionExecutor, SubscriptionResult } from '../rest-bridge/stream';
import { IDENTITY_HEADERS } from '../subgraphs/shared/context';
import { formatResult } from '../subgraphs/shared/format-error';
import type { SubgraphName } from '../subgraphs/shared/subgraph-definition';
import type { RunningSubgraph } from '../subgraphs/shared/subgraph-runtime';
import type { Config } from './config';
import { contextOf } from './request-context';
import { subscriptionField } from './sse';

/** Where a route's subscription runs: parsed once, since routes send a fixed set of documents. */
interface Plan {
  document: DocumentNode;
  owner: SubgraphName;
}

/** Finds each document's owning subgraph (Apollo Gateway plans no subscriptions, docs/architecture.md, Stack notes); a bad route document is a bug, so it throws. */
function planner(owners: Map<string, SubgraphName>): (query: string) => Plan {
  const plans = new Map<string, Plan>();
  return (query) => {
    let plan = plans.get(query);
    if (!plan) {
      const document = parse(query);
      const field = subscriptionField(document);
      const owner = typeof field === 'string' ? owners.get(field) : undefined;
      if (!owner) throw new Error(`no subgraph owns the subscription ${typeof field === 'string' ? field : field.error}`);
      plan = { document, owner };
      plans.set(query, plan);
    }
    return plan;
  };
}

/** An iterator over results already at hand (a refused subscription's single result). */
function once(result: SubscriptionResult): AsyncIterator<SubscriptionResult> {
  let sent = false;
  return {
    next: async () => (sent ? { done: true, value: undefined } : ((sent = true), { done: false, value: result })),
    return: async () => ({ done: true, value: undefined }),
  };
}

/** All-in-one: graphql-js `subscribe` on the owning subgraph's schema, with that subgraph's context for this request. */
function localExecutor(subgraphs: RunningSubgraph[], owners: Map<string, SubgraphName>): SubscriptionExecutor {
  const plan = planner(owners);
  const checked = new Set<string>();
  return async (query, variables, res) => {
    const { document, owner } = plan(query);
    const subgraph = subgraphs.find((s) => s.name === owner)!;
    if (!checked.has(query)) {
      const problems = validate(subgraph.schema, document);
      if (problems.length) throw new Error(`subscription document is invalid for ${owner}: ${problems.map((p) => p.message).join('; ')}`);
      checked.add(query);
    }
    const ctx = contextOf(res);
    const report = (error: unknown, requestId: string | undefined) => ctx.log.error({ err: error, requestId }, 'subscription failed');
    const format = (result: ExecutionResult): SubscriptionResult => {
      const formatted = formatResult(result, report, ctx.requestId);
      return { data: formatted.data as SubscriptionResult['data'], errors: formatted.errors?.map((e) => e.toJSON()) };
    };
    const result = await subscribe({
      schema: subgraph.schema,
      document,
      variableValues: variables,
      contextValue: subgraph.context({ tenantId: ctx.tenantId, requestId: ctx.requestId }),
    });
    if (!(Symbol.asyncIterator in result)) return once(format(result));
    const events = result[Symbol.asyncIterator]();
    return {
      async next() {
        const next = await events.next();
        return next.done ? { done: true, value: undefined } : { done: false, value: format(next.value) };
      },
      async return() {
        await events.return?.();
        return { done: true, value: undefined };
      },
    };
  };
}

/**
 * Distributed: the owning subgraph's `/graphql/stream` over HTTP, read with graphql-sse's own
 * client (distinct connections, no retries) and carrying the identity headers and the shared
 * secret as every gateway call does. `return()` aborts the request, which cancels the subgraph's
 * stream and its provider's work.
 */
function remoteExecutor(config: Config, owners: Map<string, SubgraphName>): SubscriptionExecutor {
  const plan = planner(owners);
  return async (query, variables, res) => {
    const { owner } = plan(query);
    const ctx = contextOf(res);
    const client = createClient({
      url: new URL('/graphql/stream', config.subgraphUrls[owner]).toString(),
      headers: {
        [IDENTITY_HEADERS.secret]: config.internalSecret!,
        [IDENTITY_HEADERS.tenant]: ctx.tenantId ?? '',
        [IDENTITY_HEADERS.requestId]: ctx.requestId,
      },
      retryAttempts: 0,
    });
    const results = client.iterate<Record<string, unknown>>({ query, variables });
    const finish = async () => {
      await results.return?.();
      client.dispose();
    };
    return {
      async next() {
        const next = await results.next().catch(async (error) => {
          await finish();
          throw error;
        });
        if (next.done) await finish();
        return next.done ? { done: true, value: undefined } : { done: false, value: next.value as SubscriptionResult };
      },
      async return() {
        await finish();
        return { done: true, value: undefined };
      },
    };
  };
}

/** The REST bridge's way into subscriptions: in-process when this process runs the subgraphs, over HTTP otherwise. */
export function createSubscriptionExecutor(config: Config, subgraphs: RunningSubgraph[] | null, owners: Map<string, SubgraphName>): SubscriptionExecutor {
  return subgraphs ? localExecutor(subgraphs, owners) : remoteExecutor(config, owners);
}
