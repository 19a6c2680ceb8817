import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';

/**
 * Apollo Server hands a document whose `operationName` selects no operation (several unnamed,
 * or a name it lacks) to Apollo Gateway's executor, which throws and made it a 500. Refused here
 * as Apollo's own request error: 400 `OPERATION_RESOLUTION_FAILURE`, nothing run.
 */
export function operationResolutionPlugin(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, request }) {
          if (operation) return;
          const message = request.operationName
            ? `Unknown operation named "${request.operationName}".`
            : 'Must provide operation name if query contains multiple operations.';
          throw new GraphQLError(message, { extensions: { code: 'OPERATION_RESOLUTION_FAILURE', http: { status: 400 } } });
        },
      };
    },
  };
}
