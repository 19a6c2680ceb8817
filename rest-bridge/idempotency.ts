import { createHash } from 'node:crypto';
import { InProgressError, ValidationError } from '../schema/errors';
import type { HttpAnswer } from './http-errors';
import type { RouteDefinition } from './types';

/** The response kept for replay: status and the JSON text sent (null for no body). */
export interface StoredResponse {
  status: number;
  body: string | null;
}

/** Persistence of idempotency records, keyed by tenant and key. */
export interface IdempotencyStore {
  /** Claims the key (answering the claim's owner token), or reports why not: still running (and for how many seconds more its claim holds at most), used for another request, or already answered. */
  begin(tenantId: string, key: string, fingerprint: string): Promise<{ owner: string } | { inProgressSeconds: number } | 'mismatch' | StoredResponse>;
  /** Stores the answer, if `owner` still holds the claim. */
  complete(tenantId: string, key: string, owner: string, response: StoredResponse): Promise<void>;
  /** Releases a claim whose request failed on the server side, so a retry runs again; only `owner`'s. */
  abandon(tenantId: string, key: string, owner: string): Promise<void>;
}

/** The header, as payment APIs name it. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

/** Canonical JSON (sorted keys) so that the same request always has the same fingerprint. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Which answers are kept for replay: only successes (2xx), the answers of requests that ran and
 * changed something (a declined charge is a 200 too). A 4xx is a refusal whose writes were all
 * rolled back, so it is not kept and the corrected request may reuse the key, as Stripe keeps no
 * result for a request that failed validation; a 5xx is not kept so that the retry runs again.
 */
const kept = (status: number): boolean => status >= 200 && status < 300;

/**
 * Runs a retryable request at most once per `Idempotency-Key` (Stripe's semantics): the first
 * successful answer is stored for 24 hours and replayed, marked `Idempotent-Replayed: true`, for
 * a retry with the same key and the same request; the same key with another request is a 422; a
 * retry while the first is still running is a 409 with Retry-After, the most its claim may still
 * hold (IDEMPOTENCY_LOCK_SECONDS since it began). Refusals (4xx) and failures (5xx) are not
 * stored (see `kept`), so they can be retried, corrected or not. Without the header the request just runs.
 */
export async function runIdempotently(
  store: IdempotencyStore,
  key: string | undefined,
  tenantId: string | null,
  route: RouteDefinition,
  variables: Record<string, unknown>,
  produce: () => Promise<HttpAnswer>,
): Promise<HttpAnswer> {
  if (key === undefined || !tenantId) return produce();
  if (!VALID_KEY.test(key)) {
    throw new ValidationError([
      { type: 'value_error', loc: ['header', IDEMPOTENCY_HEADER], msg: 'Value error, must be 1 to 255 printable ASCII characters', input: key, ctx: { error: 'must be 1 to 255 printable ASCII characters' } },
    ]);
  }
  const fingerprint = createHash('sha256').update(`${route.method} ${route.path}\n${canonical(variables)}`).digest('hex');
  const claim = await store.begin(tenantId, key, fingerprint);
  if (claim === 'mismatch') {
    throw new ValidationError([
      { type: 'value_error', loc: ['header', IDEMPOTENCY_HEADER], msg: 'Value error, this key was already used for a different request', input: key, ctx: { error: 'this key was already used for a different request' } },
    ]);
  }
  // Retry-After: when the claim is released at the latest, should the request holding it never finish (docs/api.md, Safe retries).
  if ('inProgressSeconds' in claim) throw new InProgressError(claim.inProgressSeconds);
  if (!('owner' in claim)) {
    return { status: claim.status, body: claim.body === null ? undefined : JSON.parse(claim.body), headers: { 'Idempotent-Replayed': 'true' } };
  }
  let answer: HttpAnswer;
  try {
    answer = await produce();
  } catch (error) {
    await store.abandon(tenantId, key, claim.owner);
    throw error;
  }
  if (!kept(answer.status)) await store.abandon(tenantId, key, claim.owner);
  else await store.complete(tenantId, key, claim.owner, { status: answer.status, body: answer.body === undefined ? null : JSON.stringify(answer.body) });
  return answer;
}
