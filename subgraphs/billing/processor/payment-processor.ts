import { SandboxPaymentProcessor } from './sandbox.processor';

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

/**
 * The payment processor billing charges through. The built-in sandbox answers deterministically
 * (README lists its test values); a real integration implements the same two calls.
 */
export interface PaymentProcessor {
  /** Charges a tokenised payment method. Throws only when the processor could not be reached. */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Opens a merchant account and answers its id at the processor. */
  createMerchantAccount(name: string): Promise<{ accountId: string }>;
}

let processor: PaymentProcessor = new SandboxPaymentProcessor();

/** The processor of this process: the sandbox unless `usePaymentProcessor` chose another. */
export const paymentProcessor = (): PaymentProcessor => processor;

/** Replaces the processor (an integration at start-up, or a test double). */
export function usePaymentProcessor(next: PaymentProcessor): void {
  processor = next;
}
