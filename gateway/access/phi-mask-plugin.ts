import type { ApolloServerPlugin } from '@apollo/server';
import type { RequestContext } from '../../schema/request-context';
import type { PhiMask } from './phi-mask';

/** `/graphql`'s side of the patient mask: the answer's data is masked for a caller without `patients:read` before it is written. */
export function phiMaskPlugin(mask: () => PhiMask): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, document, operation, contextValue }) {
          if (response.body.kind !== 'single' || !document || !operation) return;
          mask().apply(document, operation, response.body.singleResult.data, contextValue.scopes);
        },
      };
    },
  };
}
