import { ServiceUnavailableError } from '../../../schema/errors';

/** What a charge needs: the processor's token and display details of the method, and the amount. */
export interface ChargeRequest {
  /** Our payment id; processors use it as their idempotency key, so a retried charge is not taken twice. */
  idempotencyKey: string;
  amountCents: number;
  processorPaymentMethodId: string;
  /** Last 4 digits of the card or account (the sandbox's test values key on them). */
  last4: string | null;
  methodType: 'CARD' | 'ACH' | 'WALLET_PAY';
  description: string;
}

/** A charge's outcome; a decline is an outcome, not an exception. */
export interface ChargeResult {
  status: 'SUCCEEDED' | 'FAILED';
  /** The processor's id of the payment, when it made one. */
  processorPaymentId: string | null;
  /** Decline code (`card_declined`, `insufficient_funds`, ...) when FAILED. */
  failureReason: string | null;
}

/** What opening a merchant account needs. */
export interface OpenAccountRequest {
  name: string;
  /**
   * The caller's key, already scoped to the tenant; the processor answers the account it opened
   * under the same key instead of opening another, so a retried opening opens one account. Null:
   * every call opens a new account.
   */
  idempotencyKey: string | null;
}

/**
 * The payment processor billing charges through. The built-in sandbox answers deterministically
 * (docs/api.md lists its test values); a real integration implements the same two calls.
 */
export interface PaymentProcessor {
  /** Charges a tokenised payment method. Throws ProcessorUnreachableError when the processor could not be reached or its answer was lost. */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Opens a merchant account (or answers the one opened under the same key) and its id at the processor; throws ProcessorUnreachableError like charge(). */
  createMerchantAccount(request: OpenAccountRequest): Promise<{ accountId: string }>;
}

/**
 * What an integration throws when the processor could not be reached or its answer was lost
 * (connection refused, timeout, reset). Anything else an integration throws is a bug of ours: a
 * 500, not a 503 that would invite the caller to retry into the same bug.
 */
export class ProcessorUnreachableError extends Error {
  override readonly name = 'ProcessorUnreachableError';
}

// Long enough for a blip at the processor to pass, short enough for a front desk to wait out.
const RETRY_AFTER_SECONDS = 10;

/**
 * Calls the running subgraph's processor (`ctx.deps.processor`). An unreachable processor becomes
 * a 503 with Retry-After, since every call site leaves a retry safe (a member payment stays
 * PENDING and the retry settles it under the same idempotency key); any other error passes
 * through as the bug it is.
 */
export async function withProcessor<T>(processor: PaymentProcessor, call: (processor: PaymentProcessor) => Promise<T>): Promise<T> {
  try {
    return await call(processor);
  } catch (error) {
    if (!(error instanceof ProcessorUnreachableError)) throw error;
    throw new ServiceUnavailableError('Payment processor unavailable; retry the request', RETRY_AFTER_SECONDS, { cause: error });
  }
}
