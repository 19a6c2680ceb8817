import { createHash, randomBytes } from 'node:crypto';
import type { ChargeRequest, ChargeResult, OpenAccountRequest, PaymentProcessor } from './payment-processor';

/**
 * Test values, as payment providers publish them: a card (or wallet card) whose last 4 digits are
 * listed declines with that code, and so does a bank account; everything else succeeds.
 */
export const SANDBOX_DECLINES: Readonly<Record<'CARD' | 'ACH', Readonly<Record<string, string>>>> = {
  CARD: { '0002': 'card_declined', '9995': 'insufficient_funds', '9987': 'lost_card', '9979': 'stolen_card', '0069': 'expired_card', '0119': 'processing_error' },
  ACH: { '1113': 'account_closed', '2227': 'insufficient_funds' },
};

/** The built-in processor: no network, deterministic outcomes by last 4 digits. */
export class SandboxPaymentProcessor implements PaymentProcessor {
  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const table = request.methodType === 'ACH' ? SANDBOX_DECLINES.ACH : SANDBOX_DECLINES.CARD;
    const decline = request.last4 ? table[request.last4] : undefined;
    if (decline) return { status: 'FAILED', processorPaymentId: null, failureReason: decline };
    return { status: 'SUCCEEDED', processorPaymentId: `py_sandbox_${request.idempotencyKey.replace(/-/g, '')}`, failureReason: null };
  }

  /** The same key always answers the same account, as a processor honouring idempotency keys does. */
  async createMerchantAccount(request: OpenAccountRequest): Promise<{ accountId: string }> {
    const suffix = request.idempotencyKey === null ? randomBytes(8).toString('hex') : createHash('sha256').update(request.idempotencyKey).digest('hex').slice(0, 16);
    return { accountId: `acct_sandbox_${suffix}` };
  }
}
