import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import { Member } from '../entities/member.entity';
import type { MemberStatus } from '../types/enums';
import type { MemberPaymentView, MemberView } from '../types/member.type';

const MEMBER = `m.id, m.patient_id as "patientId", m.plan_name as "planName", m.price_cents as "priceCents", m.billing_interval as "interval",
  m.status, m.balance_due_cents as "balanceDueCents", m.created_at as "createdDate", m.updated_at as "updatedDate"`;

// Payments ride along in the same statement, newest first.
const WITH_PAYMENTS = `${MEMBER}, coalesce((
    select json_agg(json_build_object('paymentId', p.id, 'memberId', p.member_id, 'paymentMethodId', p.payment_method_id,
      'amountCents', p.amount_cents, 'status', p.status, 'failureReason', p.failure_reason, 'comment', p.comment,
      'createdAt', p.created_at) order by p.created_at desc, p.id desc)
    from billing.member_payments p where p.member_id = m.id and p.tenant_id = m.tenant_id), '[]') as payments`;

/** The driver (and json_build_object) hand timestamps back as text; views carry Dates. */
function toView(row: Record<string, any>): MemberView {
  return {
    ...row,
    createdDate: new Date(row.createdDate),
    updatedDate: new Date(row.updatedDate),
    payments: ((row.payments ?? []) as Record<string, any>[]).map((p) => ({ ...p, createdAt: new Date(p.createdAt) }) as MemberPaymentView),
  } as MemberView;
}

/** Member SQL: one statement per read (payments included), binding the tenant id itself. */
export class MemberRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** Stores members of the scope's tenant through the entity (its tenantId is the scope's), in one flush. */
  async create(rows: Record<string, unknown>[]): Promise<Member[]> {
    const members = rows.map((fields) => this.em.create(Member, { ...fields, tenantId: this.scope.tenantId } as never));
    await this.em.flush();
    return members;
  }

  private run(sql: string, params: unknown[]): Promise<Record<string, any>[]> {
    return this.em.getConnection().execute<Record<string, any>[]>(sql, params, 'all', this.em.getTransactionContext());
  }

  /** The member with payments, or null. */
  async findById(id: string): Promise<MemberView | null> {
    const rows = await this.run(`select ${WITH_PAYMENTS} from billing.members m where m.tenant_id = ? and m.id = ?`, [this.scope.tenantId, id]);
    return rows[0] ? toView(rows[0]) : null;
  }

  /** The member, locked until the transaction ends: a member's payments run one at a time. */
  async lockById(id: string): Promise<MemberView | null> {
    const rows = await this.run(`select ${MEMBER} from billing.members m where m.tenant_id = ? and m.id = ? for update`, [this.scope.tenantId, id]);
    return rows[0] ? toView({ ...rows[0], payments: [] }) : null;
  }

  /** Takes a successful payment off the balance; PAST_DUE becomes ACTIVE once nothing is owed. */
  async applyPayment(id: string, amountCents: number): Promise<void> {
    await this.run(
      `update billing.members set balance_due_cents = balance_due_cents - ?, updated_at = now(),
         status = case when status = 'PAST_DUE' and balance_due_cents - ? <= 0 then 'ACTIVE' else status end
       where tenant_id = ? and id = ?`,
      [amountCents, amountCents, this.scope.tenantId, id],
    );
  }

  /** One page, newest first, with payments and the total in one statement. */
  async list(status: MemberStatus | null, page: number, perPage: number): Promise<[MemberView[], number]> {
    const filter = status ? 'and m.status = ?' : '';
    const params = status ? [this.scope.tenantId, status] : [this.scope.tenantId];
    const rows = await this.run(
      `select ${WITH_PAYMENTS}, count(*) over () as total from billing.members m where m.tenant_id = ? ${filter}
       order by m.created_at desc, m.id desc limit ? offset ?`,
      [...params, perPage, (page - 1) * perPage],
    );
    if (rows.length) return [rows.map(({ total: _total, ...row }) => toView(row)), Number(rows[0].total)];
    const [counted] = await this.run(`select count(*) as total from billing.members m where m.tenant_id = ? ${filter}`, params);
    return [[], Number(counted.total)];
  }
}
