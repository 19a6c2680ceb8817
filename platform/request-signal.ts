import type { ServerResponse } from 'node:http';
import { ClientClosedRequestError } from '../schema/errors';

/**
 * The request's AbortSignal, made once where the request arrives (the gateway's edge, a subgraph
 * service's): aborted with a ClientClosedRequestError when the connection closes before the
 * response was sent in full. Read from the response, not the request: since Node 16 a request's
 * 'close' means its body was read, while the response's 'close' comes once the answer is written
 * or the connection is gone, and `writableFinished` tells the two apart.
 */
export function requestSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  const closed = () => {
    if (!res.writableFinished) controller.abort(new ClientClosedRequestError());
  };
  // Made after the connection closed (a body still being read when it went): aborted already.
  if (res.closed) closed();
  else res.once('close', closed);
  return controller.signal;
}
