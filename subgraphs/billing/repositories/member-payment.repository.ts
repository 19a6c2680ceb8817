import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { ChargeResult } from '../processor/payment-processor';
import type { PaymentStatus } from '../entities/member-payment.entity';

/** A manual payment as the service reads and answers it. */
export interface MemberPaymentRow {
  id: string;
  memberId: string;
  paymentMethodId: string;
  amountCents: number;
  status: PaymentStatus;
  failureReason: string | null;
  comment: string | null;
  createdAt: Date;
}

const COLUMNS = `id, member_id as "memberId", payment_method_id as "paymentMethodId", amount_cents as "amountCents",
  status, failure_reason as "failureReason", comment, created_at as "createdAt"`;

/** The driver hands timestamptz back as text; rows carry Dates. */
const toRow = (raw: Record<string, any>): MemberPaymentRow => ({ ...raw, createdAt: new Date(raw.createdAt) }) as MemberPaymentRow;

/** Manual payment SQL, binding the tenant id itself; inside a transaction it runs on its connection. */
export class MemberPaymentRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  private run(sql: string, params: unknown[]): Promise<Record<string, any>[]> {
    return this.em.getConnection().execute<Record<string, any>[]>(sql, params, 'all', this.em.getTransactionContext());
  }

  /** Writes an attempt as PENDING; the caller commits it before the processor is called. */
  async insertPending(payment: Pick<MemberPaymentRow, 'id' | 'memberId' | 'paymentMethodId' | 'amountCents' | 'comment'>): Promise<MemberPaymentRow> {
    const rows = await this.run(
      `insert into billing.member_payments (id, tenant_id, member_id, payment_method_id, amount_cents, status, comment)
       values (?, ?, ?, ?, ?, 'PENDING', ?) returning ${COLUMNS}`,
      [payment.id, this.scope.tenantId, payment.memberId, payment.paymentMethodId, payment.amountCents, payment.comment],
    );
    return toRow(rows[0]);
  }

  /** One payment of the tenant, or null. */
  async findById(id: string): Promise<MemberPaymentRow | null> {
    const rows = await this.run(`select ${COLUMNS} from billing.member_payments where tenant_id = ? and id = ?`, [this.scope.tenantId, id]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** The member's attempt whose answer was never recorded. Under the member's lock nobody else can be sending it. */
  async findPending(memberId: string): Promise<MemberPaymentRow | null> {
    const rows = await this.run(`select ${COLUMNS} from billing.member_payments where tenant_id = ? and member_id = ? and status = 'PENDING'`, [this.scope.tenantId, memberId]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** Records the processor's answer on a pending attempt. */
  async settle(id: string, outcome: ChargeResult): Promise<void> {
    await this.run(
      `update billing.member_payments set status = ?, failure_reason = ?, processor_payment_id = ?, updated_at = now()
       where tenant_id = ? and id = ? and status = 'PENDING'`,
      [outcome.status, outcome.failureReason, outcome.processorPaymentId, this.scope.tenantId, id],
    );
  }
}
