import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { MissingScopeError } from '../../schema/errors';
import type { RequestContext } from '../../schema/request-context';
import type { ScopeCheck } from './scope-check';

/**
 * `/graphql`'s side of the scope check: once Apollo has parsed, validated and chosen the operation,
 * and before the gateway plans it, a caller without a scope it needs gets a 403 whose error is
 * `FORBIDDEN` naming the scope (`extensions.scope`), and nothing runs.
 */
export function scopePlugin(check: ScopeCheck): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, operation, contextValue }) {
          if (!operation) return;
          try {
            check.authorize(document, operation, contextValue.scopes ?? null);
          } catch (error) {
            if (!(error instanceof MissingScopeError)) throw error;
            throw new GraphQLError(error.message, { originalError: error, extensions: { code: error.code, ...error.extensions(), http: { status: 403 } } });
          }
        },
      };
    },
  };
}
