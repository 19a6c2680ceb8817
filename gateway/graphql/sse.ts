import { STATUS_CODES } from 'node:http';
import type { ExecutionResult } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/express';
import { contextOf } from '../http/request-context';
import type { SubscriptionGate, SubscriptionRefusal } from './subscription-gate';

/**
 * A graphql-sse rejection: a JSON error body with a code. The status line carries the status's
 * fixed reason phrase, never the message: node refuses a non-Latin-1 character there, which
 * turned the refusal into a 500 HTML page.
 */
const reject = ({ status, message, extensions }: SubscriptionRefusal): [string, { status: number; statusText: string; headers: Record<string, string> }] => [
  JSON.stringify({ errors: [{ message, extensions }] }),
  { status, statusText: STATUS_CODES[status] ?? 'Error', headers: { 'content-type': 'application/json; charset=utf-8' } },
];

/**
 * `/graphql/stream`, in both run modes: graphql-sse's distinct-connection mode (no reservation
 * tokens, so streams never cross tenants). Each subscription goes through the subscription gate
 * (subscription-gate.ts), which `/graphql`'s WebSocket transport shares; results arrive already in
 * their client form.
 */
export function streamHandler(gate: SubscriptionGate) {
  return createHandler({
    authenticate: () => null,
    onSubscribe: async (req, params) => {
      const opened = await gate.open(params, contextOf(req.context.res), 'sse');
      // Results are already formatted for clients (plain errors, no GraphQLError instances); graphql-sse only serialises them.
      return 'refused' in opened ? reject(opened.refused) : (opened.events as AsyncIterable<ExecutionResult>);
    },
  });
}
