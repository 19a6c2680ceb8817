import type { ApolloServerPlugin } from '@apollo/server';
import { graphqlDuration, graphqlOperations } from './instruments';

/** Distinct operation names labelled per process; later names share `other`, so a client inventing names cannot grow the series without bound. */
export const MAX_OPERATION_NAMES = 200;

/**
 * Counts and times `/graphql` operations by name (or `anonymous`) and type. Only operations that
 * parsed, validated and resolved are labelled by name: a document refused earlier names nothing
 * trustworthy and is counted by the route's HTTP metrics alone.
 */
export function graphqlMetricsPlugin(maxNames = MAX_OPERATION_NAMES): ApolloServerPlugin {
  const names = new Set<string>();
  const label = (name: string | null | undefined): string => {
    const operation = name ?? 'anonymous';
    if (names.has(operation)) return operation;
    if (names.size >= maxNames) return 'other';
    names.add(operation);
    return operation;
  };
  return {
    async requestDidStart() {
      const started = process.hrtime.bigint();
      let labels: { operation: string; type: string } | null = null;
      return {
        async didResolveOperation({ operation }) {
          if (operation) labels = { operation: label(operation.name?.value), type: operation.operation };
        },
        async willSendResponse({ response }) {
          if (!labels) return;
          const errors = response.body.kind === 'single' ? response.body.singleResult.errors : response.body.initialResult.errors;
          graphqlOperations.inc({ ...labels, outcome: errors?.length ? 'error' : 'ok' });
          graphqlDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
        },
      };
    },
  };
}
