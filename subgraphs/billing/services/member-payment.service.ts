import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import { ConflictError, NotFoundError, ValidationError } from '../../../schema/errors';
import { Issues } from '../../common/field-rules';
import { recordEvent } from '../../common/jobs/record-event';
import type { MemberManualPaymentInput } from '../inputs/member.input';
import { withProcessor, type PaymentProcessor } from '../processor/payment-processor';
import { MemberPaymentRepository, type MemberPaymentRow } from '../repositories/member-payment.repository';
import { MemberRepository } from '../repositories/member.repository';
import { PaymentMethodRepository } from '../repositories/payment-method.repository';
import { PaymentStatus } from '../types/enums';
import type { MemberPaymentView } from '../types/member.type';
import { MAX_NOTE, optionalString, reusedRequestKey } from './rules';

/** A 422 on one body field (contract 4.7 shows only loc, msg, type; the bridge drops the rest). */
const refuse = (field: string, reason: string, input: unknown) =>
  new ValidationError([{ type: 'value_error', loc: ['input', field], msg: `Value error, ${reason}`, input, ctx: { error: reason } }]);

const toView = (payment: MemberPaymentRow): MemberPaymentView => ({
  paymentId: payment.id,
  memberId: payment.memberId,
  paymentMethodId: payment.paymentMethodId,
  amountCents: payment.amountCents,
  status: PaymentStatus[payment.status],
  failureReason: payment.failureReason,
  comment: payment.comment,
  createdAt: payment.createdAt,
});

/** Manual payments of members (contract part 4.7). */
export class MemberPaymentService {
  /** `audit`: the request's side of the audit trail (ctx.audit), written with the attempt. */
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope, private readonly processor: PaymentProcessor, private readonly audit: RequestAudit) {}

  /**
   * Charges the member's whole balance due to a payment method of the member's patient through
   * the payment processor. A decline is an answer (status FAILED, the processor's code in
   * failureReason), recorded like a success; only a success lowers the balance.
   *
   * The attempt is committed as PENDING before the processor is called, its id the processor's
   * idempotency key; the charge and its answer are then recorded under the member's lock. When
   * the answer is lost (processor unreachable mid-call: a 503; the commit failing after the charge), the
   * member's next payment first settles that attempt with the same key, so the processor answers
   * what it did instead of charging again, and a retry with the same payment method gets that
   * attempt as its answer. Two payments of one member never both charge: the second finds the
   * first pending (409) or settled (nothing due, 422). The audit record is written with the
   * PENDING attempt; a retry answered with an earlier attempt (recorded by the request that made
   * it) records a read of the member, not a second payment.
   *
   * `requestKey`, the caller's Idempotency-Key (null without one): the attempt is made under it,
   * and a retry with it answers that attempt, pending or settled, before anything else is checked,
   * so a retry after a lost answer (the gateway died before storing it) gets that payment, not
   * "no balance due" (docs/api.md, Safe retries).
   */
  async pay(input: MemberManualPaymentInput, requestKey: string | null = null): Promise<MemberPaymentView> {
    const issues = new Issues();
    const comment = optionalString(issues, ['input', 'comment'], input.comment, MAX_NOTE);
    issues.throwIfAny();

    // A retry of a request whose answer was lost (its gateway died after the attempt was made) answers that attempt.
    const made = requestKey === null ? null : await new MemberPaymentRepository(this.em, this.scope).findByRequestKey(requestKey);
    if (made) return this.answerMade(made, input);

    const earlier = await this.settlePending(input.memberId);
    if (earlier && earlier.paymentMethodId === input.paymentMethodId.toLowerCase()) {
      this.audit.read('member', [earlier.memberId]);
      return toView(earlier);
    }

    const attempt = await this.em.transactional(async (tx): Promise<{ made: MemberPaymentRow } | { pending: MemberPaymentRow }> => {
      const member = await new MemberRepository(tx, this.scope).lockById(input.memberId);
      if (!member) throw new NotFoundError('Member not found');
      // Under the member's lock: a request with this key that got here first has committed its attempt.
      const madeMeanwhile = requestKey === null ? null : await new MemberPaymentRepository(tx, this.scope).findByRequestKey(requestKey);
      if (madeMeanwhile) return { made: madeMeanwhile };
      const methods = new PaymentMethodRepository(tx, this.scope);
      const method = await methods.findById(input.paymentMethodId);
      if (!method) throw new NotFoundError('Payment method not found');
      if (method.patientId !== member.patientId) throw refuse('paymentMethodId', "the payment method does not belong to the member's patient", input.paymentMethodId);
      if (method.isArchived) throw refuse('paymentMethodId', 'the payment method is archived', input.paymentMethodId);
      // A token another tenant registered first (kept by the migration that made tokens one tenant's) is not charged.
      if (await methods.isDisputed(method.id)) throw refuse('paymentMethodId', 'the payment method cannot be charged until support has confirmed its processor token', input.paymentMethodId);
      if (member.balanceDueCents <= 0) throw refuse('memberId', 'the member has no balance due', input.memberId);
      const payments = new MemberPaymentRepository(tx, this.scope);
      if (await payments.findPending(member.id)) throw new ConflictError('Another payment of this member is in progress; retry the request for its outcome');
      const pending = await payments.insertPending({ id: randomUUID(), memberId: member.id, paymentMethodId: method.id, amountCents: member.balanceDueCents, comment, requestKey });
      // Recorded with the attempt, the caller's decision to charge: its settlement may be another request's (see above).
      await this.audit.change(tx, 'member.manual_payment', 'member', [member.id]);
      return { pending };
    });
    if ('made' in attempt) return this.answerMade(attempt.made, input);
    return toView(await this.settle(attempt.pending));
  }

  /**
   * Answers the attempt made under the caller's Idempotency-Key, settling it first if its answer
   * was never recorded; the same key for another member or method is a reused key (422). Recorded
   * as a read: the request that made the attempt recorded the payment.
   */
  private async answerMade(made: MemberPaymentRow, input: MemberManualPaymentInput): Promise<MemberPaymentView> {
    if (made.memberId !== input.memberId.toLowerCase() || made.paymentMethodId !== input.paymentMethodId.toLowerCase()) throw reusedRequestKey();
    const answer = made.status === 'PENDING' ? await this.settle(made) : made;
    this.audit.read('member', [answer.memberId]);
    return toView(answer);
  }

  /** Settles a PENDING attempt and reads its outcome: another payment of the member may have settled it first (same key, one charge). */
  private async settle(attempt: MemberPaymentRow): Promise<MemberPaymentRow> {
    const settled = await this.settlePending(attempt.memberId);
    return settled?.id === attempt.id ? settled : (await new MemberPaymentRepository(this.em, this.scope).findById(attempt.id))!;
  }

  /** Under the member's lock, sends the member's PENDING attempt (if any) to the processor and records the answer. */
  private settlePending(memberId: string): Promise<MemberPaymentRow | null> {
    return this.em.transactional(async (tx) => {
      const member = await new MemberRepository(tx, this.scope).lockById(memberId);
      if (!member) throw new NotFoundError('Member not found');
      const pending = await new MemberPaymentRepository(tx, this.scope).findPending(member.id);
      return pending ? this.charge(tx, pending, member.planName) : null;
    });
  }

  /** Sends a PENDING attempt to the processor and records its answer, the balance and the event in `tx`. */
  private async charge(tx: EntityManager, payment: MemberPaymentRow, planName: string): Promise<MemberPaymentRow> {
    const source = (await new PaymentMethodRepository(tx, this.scope).findById(payment.paymentMethodId))!;
    const outcome = await withProcessor(this.processor, (processor) =>
      processor.charge({
        idempotencyKey: payment.id,
        amountCents: payment.amountCents,
        processorPaymentMethodId: source.processorPaymentMethodId,
        last4: source.last4,
        methodType: source.type,
        description: `Membership ${planName}`,
      }),
    );
    await new MemberPaymentRepository(tx, this.scope).settle(payment.id, outcome);
    if (outcome.status === 'SUCCEEDED') await new MemberRepository(tx, this.scope).applyPayment(payment.memberId, payment.amountCents);
    await recordEvent(tx, this.scope, outcome.status === 'SUCCEEDED' ? 'member.payment_succeeded' : 'member.payment_failed', {
      paymentId: payment.id,
      memberId: payment.memberId,
      amountCents: payment.amountCents,
      status: outcome.status,
      failureReason: outcome.failureReason,
    });
    return { ...payment, status: outcome.status, failureReason: outcome.failureReason };
  }
}
