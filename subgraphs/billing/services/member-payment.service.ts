import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, ValidationError } from '../../../schema/errors';
import { Issues } from '../../shared/field-rules';
import { isUuid } from '../../shared/ids';
import { recordEvent } from '../../shared/outbox/record-event';
import { MemberPayment } from '../entities/member-payment.entity';
import type { MemberManualPaymentInput } from '../inputs/member.input';
import { paymentProcessor } from '../processor/payment-processor';
import { MemberRepository } from '../repositories/member.repository';
import { PaymentMethodRepository } from '../repositories/payment-method.repository';
import { PaymentStatus } from '../types/enums';
import type { MemberPaymentView } from '../types/member.type';
import { MAX_NOTE, optionalString } from './rules';

/** A 422 on one body field (contract 4.7 shows only loc, msg, type; the bridge drops the rest). */
const refuse = (field: string, reason: string, input: unknown) =>
  new ValidationError([{ type: 'value_error', loc: ['input', field], msg: `Value error, ${reason}`, input, ctx: { error: reason } }]);

/** Manual payments of members (contract part 4.7). */
export class MemberPaymentService {
  constructor(private readonly em: EntityManager, private readonly tenantId: string) {}

  /**
   * Charges the member's whole balance due to a payment method of the member's patient through
   * the payment processor. The member row stays locked from the balance check to the commit, so
   * two payments of one member never both charge. A decline is an answer (status FAILED, the
   * processor's code in failureReason), recorded like a success; only a success lowers the balance.
   */
  async pay(input: MemberManualPaymentInput): Promise<MemberPaymentView> {
    const issues = new Issues();
    const comment = optionalString(issues, ['input', 'comment'], input.comment, MAX_NOTE);
    issues.throwIfAny();
    if (!isUuid(input.memberId)) throw new NotFoundError('Member not found');
    if (!isUuid(input.paymentMethodId)) throw new NotFoundError('Payment method not found');
    return this.em.transactional(async (tx) => {
      const member = await new MemberRepository(tx, this.tenantId).lockById(input.memberId);
      if (!member) throw new NotFoundError('Member not found');
      const method = await new PaymentMethodRepository(tx, this.tenantId).findById(input.paymentMethodId);
      if (!method) throw new NotFoundError('Payment method not found');
      if (method.patientId !== member.patientId) throw refuse('paymentMethodId', "the payment method does not belong to the member's patient", input.paymentMethodId);
      if (method.isArchived) throw refuse('paymentMethodId', 'the payment method is archived', input.paymentMethodId);
      if (member.balanceDueCents <= 0) throw refuse('memberId', 'the member has no balance due', input.memberId);

      const paymentId = randomUUID();
      const amountCents = member.balanceDueCents;
      const outcome = await paymentProcessor().charge({
        idempotencyKey: paymentId,
        amountCents,
        processorPaymentMethodId: method.processorPaymentMethodId,
        last4: method.last4,
        methodType: method.type,
        description: `Membership ${member.planName}`,
      });
      const payment = tx.create(MemberPayment, {
        id: paymentId,
        tenantId: this.tenantId,
        memberId: member.id,
        paymentMethodId: method.id,
        amountCents,
        status: outcome.status,
        failureReason: outcome.failureReason,
        processorPaymentId: outcome.processorPaymentId,
        comment,
      } as never);
      if (outcome.status === 'SUCCEEDED') await new MemberRepository(tx, this.tenantId).applyPayment(member.id, amountCents);
      recordEvent(tx, this.tenantId, outcome.status === 'SUCCEEDED' ? 'member.payment_succeeded' : 'member.payment_failed', {
        paymentId,
        memberId: member.id,
        amountCents,
        status: outcome.status,
        failureReason: outcome.failureReason,
      });
      return {
        paymentId,
        memberId: member.id,
        paymentMethodId: method.id,
        amountCents,
        status: PaymentStatus[outcome.status],
        failureReason: outcome.failureReason,
        comment,
        createdAt: payment.createdAt,
      };
    });
  }
}
