import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { storedId } from '../../../platform/ids';
import type { TenantScope } from '../../../platform/tenant-scope';
import { MemberPayment } from '../entities/member-payment.entity';
import { toConnection, type Connection } from '../../common/connection';
import { findSlice, keyValues } from '../../common/keyset';
import type { ListWindow, SortKey } from '../../common/list-window';
import { Member } from '../entities/member.entity';
import type { MemberStatus, MembershipInterval, PaymentStatus } from '../types/enums';
import type { MemberPaymentView, MemberView } from '../types/member.type';

const paymentView = (p: MemberPayment): MemberPaymentView => ({
  paymentId: p.id,
  memberId: p.memberId,
  paymentMethodId: p.paymentMethodId,
  amountCents: p.amountCents,
  status: p.status as PaymentStatus,
  failureReason: p.failureReason,
  comment: p.comment,
  createdAt: p.createdAt,
});

/** The GraphQL view of a member and its payments (newest first). */
const memberView = (m: Member, payments: MemberPayment[]): MemberView => ({
  id: m.id,
  patientId: m.patientId,
  planName: m.planName,
  priceCents: m.priceCents,
  interval: m.interval as MembershipInterval,
  status: m.status as MemberStatus,
  balanceDueCents: m.balanceDueCents,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
  payments: payments.map(paymentView),
});

/** Members and what they owe, through the ORM under the tenant guard; payments ride along in one more query. */
export class MemberRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** Stores members of the scope's tenant through the entity (its tenantId is the scope's), in one flush. */
  async create(rows: Record<string, unknown>[]): Promise<Member[]> {
    const members = rows.map((fields) => this.em.create(Member, { ...fields, tenantId: this.scope.tenantId } as never));
    await this.em.flush();
    return members;
  }

  /** The member with payments, or null (unknown, malformed and other tenants' ids alike). */
  async findById(id: string): Promise<MemberView | null> {
    const key = storedId(id);
    const member = key ? await this.em.findOne(Member, { id: key, tenantId: this.scope.tenantId }) : null;
    if (!member) return null;
    return memberView(member, (await this.paymentsOf([member.id])).get(member.id) ?? []);
  }

  /** The member, locked until the transaction ends (read afresh under the lock): a member's payments run one at a time. */
  async lockById(id: string): Promise<MemberView | null> {
    const key = storedId(id);
    const member = key ? await this.em.findOne(Member, { id: key, tenantId: this.scope.tenantId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true }) : null;
    return member ? memberView(member, []) : null;
  }

  /** Takes a successful payment off the balance; PAST_DUE becomes ACTIVE once nothing is owed. Called under the member's lock (`lockById`). */
  async applyPayment(id: string, amountCents: number): Promise<void> {
    const member = await this.em.findOneOrFail(Member, { id, tenantId: this.scope.tenantId });
    member.balanceDueCents -= amountCents;
    if (member.status === 'PAST_DUE' && member.balanceDueCents <= 0) member.status = 'ACTIVE';
    await this.em.flush();
  }

  /** One window, newest first, with payments, and the total. */
  async list(status: MemberStatus | null, window: ListWindow): Promise<Connection<MemberView>> {
    const slice = await findSlice(this.em, Member, { tenantId: this.scope.tenantId, ...(status ? { status } : {}) }, MEMBER_KEYS, window);
    const payments = await this.paymentsOf(slice.rows.map((m) => m.id));
    return toConnection(slice, keyValues(MEMBER_KEYS), (m) => memberView(m, payments.get(m.id) ?? []));
  }

  /** The payments of these members in one query, each member's newest first. */
  private async paymentsOf(memberIds: string[]): Promise<Map<string, MemberPayment[]>> {
    const byMember = new Map<string, MemberPayment[]>();
    if (!memberIds.length) return byMember;
    const rows = await this.em.find(MemberPayment, { tenantId: this.scope.tenantId, memberId: { $in: memberIds } }, { orderBy: { createdAt: 'desc', id: 'desc' } });
    for (const row of rows) byMember.set(row.memberId, [...(byMember.get(row.memberId) ?? []), row]);
    return byMember;
  }
}

/** The order of the member list: newest first, then id. */
export const MEMBER_KEYS: SortKey<Member>[] = [
  { field: 'createdAt', direction: 'desc', kind: 'date', value: (row) => row.createdAt },
  { field: 'id', direction: 'desc', kind: 'uuid', value: (row) => row.id },
];
