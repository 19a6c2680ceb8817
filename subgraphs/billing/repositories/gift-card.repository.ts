import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { GiftCardStatus } from '../types/enums';
import type { GiftCardTransactionView, IssuedGiftCardView } from '../types/gift-card.type';

/** The columns of a new card, once validated. */
export interface NewGiftCard {
  id: string;
  code: string;
  initialValue: number;
  purchasingPatientId: string | null;
  purchasingPatientName: string | null;
  purchasingPatientEmail: string | null;
  purchasingPatientPhone: string | null;
  recipientPatientId: string | null;
  recipientPatientName: string | null;
  recipientPatientEmail: string | null;
  recipientPatientPhone: string | null;
  recipientNote: string | null;
  chargeItemId: string | null;
  scheduledSendDate: Date | null;
  suppressRecipientNotification: boolean;
}

const CARD = `g.id, g.code, g.initial_value_cents as "initialValue", g.current_balance_cents as "currentBalance", g.is_active as "isActive",
  g.status, g.created_at as "createdDate", g.activated_at as "activatedAt", g.scheduled_send_date as "scheduledSendDate",
  g.notification_sent_at as "notificationSentAt", g.updated_at as "updatedDate", g.purchasing_patient_id as "purchasingPatientId",
  g.purchasing_patient_name as "purchasingPatientName", g.purchasing_patient_email as "purchasingPatientEmail",
  g.purchasing_patient_phone as "purchasingPatientPhone", g.recipient_patient_id as "recipientPatientId",
  g.recipient_patient_name as "recipientPatientName", g.recipient_patient_email as "recipientPatientEmail",
  g.recipient_patient_phone as "recipientPatientPhone", g.recipient_note as "recipientNote", g.charge_item_id as "chargeItemId",
  g.suppress_recipient_notification as "suppressRecipientNotification"`;

// The card's transactions ride along in the same statement (no second query per card).
const WITH_TRANSACTIONS = `${CARD}, coalesce((
    select json_agg(json_build_object('id', t.id, 'type', t.type, 'amountCents', t.amount_cents,
      'balanceAfterCents', t.balance_after_cents, 'createdAt', t.created_at) order by t.created_at, t.id)
    from billing.gift_card_transactions t where t.gift_card_id = g.id and t.tenant_id = g.tenant_id), '[]') as transactions`;

const DATES = ['createdDate', 'activatedAt', 'scheduledSendDate', 'notificationSentAt', 'updatedDate'] as const;

/** The driver (and json_build_object) hand timestamps back as text; views carry Dates. */
function toView(row: Record<string, any>): IssuedGiftCardView {
  for (const field of DATES) if (row[field] != null) row[field] = new Date(row[field]);
  row.transactions = ((row.transactions ?? []) as Record<string, any>[]).map((t) => ({ ...t, createdAt: new Date(t.createdAt) }));
  return row as IssuedGiftCardView;
}

/**
 * Gift card SQL: one statement per read (transactions included), the activation a single
 * conditional update. Raw SQL binds the tenant id itself (the ORM filter does not reach it) and
 * runs on the caller's transaction when there is one.
 */
export class GiftCardRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  private run(sql: string, params: unknown[]): Promise<Record<string, any>[]> {
    return this.em.getConnection().execute<Record<string, any>[]>(sql, params, 'all', this.em.getTransactionContext());
  }

  /** Inserts a PENDING card; null when the code is already taken in this tenant (the caller draws another). */
  async insert(card: NewGiftCard): Promise<IssuedGiftCardView | null> {
    const rows = await this.run(
      `insert into billing.gift_cards as g (id, tenant_id, code, status, is_active, initial_value_cents, current_balance_cents,
         purchasing_patient_id, purchasing_patient_name, purchasing_patient_email, purchasing_patient_phone,
         recipient_patient_id, recipient_patient_name, recipient_patient_email, recipient_patient_phone, recipient_note,
         charge_item_id, scheduled_send_date, suppress_recipient_notification)
       values (?, ?, ?, 'PENDING', false, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (tenant_id, code) do nothing
       returning ${CARD}`,
      [
        card.id, this.scope.tenantId, card.code, card.initialValue,
        card.purchasingPatientId, card.purchasingPatientName, card.purchasingPatientEmail, card.purchasingPatientPhone,
        card.recipientPatientId, card.recipientPatientName, card.recipientPatientEmail, card.recipientPatientPhone, card.recipientNote,
        card.chargeItemId, card.scheduledSendDate, card.suppressRecipientNotification,
      ],
    );
    return rows[0] ? toView({ ...rows[0], transactions: [] }) : null;
  }

  /**
   * PENDING -> ACTIVE in one conditional update that also loads the initial value: of any number
   * of concurrent activations exactly one matches `status = 'PENDING'`; the others, re-checking
   * the row after the winner commits, match nothing. Null when the card is not PENDING (or not there).
   */
  async activate(id: string): Promise<IssuedGiftCardView | null> {
    const rows = await this.run(
      `update billing.gift_cards as g
       set status = 'ACTIVE', is_active = true, activated_at = now(), updated_at = now(),
           current_balance_cents = g.current_balance_cents + g.initial_value_cents
       where g.tenant_id = ? and g.id = ? and g.status = 'PENDING'
       returning ${CARD}`,
      [this.scope.tenantId, id],
    );
    return rows[0] ? toView({ ...rows[0], transactions: [] }) : null;
  }

  /** Records a balance movement. */
  async addTransaction(giftCardId: string, id: string, type: string, amountCents: number, balanceAfterCents: number): Promise<GiftCardTransactionView> {
    const [row] = await this.run(
      `insert into billing.gift_card_transactions (id, tenant_id, gift_card_id, type, amount_cents, balance_after_cents)
       values (?, ?, ?, ?, ?, ?) returning id, type, amount_cents as "amountCents", balance_after_cents as "balanceAfterCents", created_at as "createdAt"`,
      [id, this.scope.tenantId, giftCardId, type, amountCents, balanceAfterCents],
    );
    return { ...row, createdAt: new Date(row.createdAt) } as GiftCardTransactionView;
  }

  /** Records the recipient e-mail, due at the scheduled send date or now, whichever is later, under the job that will send it; returns when it is due. */
  async queueNotification(id: string, jobId: string, giftCardId: string, recipientEmail: string, scheduledSendDate: Date | null): Promise<Date> {
    const [row] = await this.run(
      `insert into billing.notifications (id, tenant_id, gift_card_id, kind, recipient_email, due_at, next_attempt_at, job_id)
       select ?, ?, ?, 'gift_card_recipient', ?, d.due, d.due, ? from (select greatest(now(), ?::timestamptz) as due) d returning due_at as "dueAt"`,
      [id, this.scope.tenantId, giftCardId, recipientEmail, jobId, scheduledSendDate],
    );
    return new Date(row.dueAt);
  }

  /** The card's state, or null when the tenant has no such card (tells 404 from 409). */
  async statusOf(id: string): Promise<GiftCardStatus | null> {
    const rows = await this.run(`select status from billing.gift_cards where tenant_id = ? and id = ?`, [this.scope.tenantId, id]);
    return rows[0]?.status ?? null;
  }

  /** True when the tenant has this charge item. */
  async chargeItemExists(id: string): Promise<boolean> {
    return (await this.run(`select 1 from billing.charge_items where tenant_id = ? and id = ?`, [this.scope.tenantId, id])).length > 0;
  }

  /** The card with its transactions, or null. */
  async findById(id: string): Promise<IssuedGiftCardView | null> {
    const rows = await this.run(`select ${WITH_TRANSACTIONS} from billing.gift_cards g where g.tenant_id = ? and g.id = ?`, [this.scope.tenantId, id]);
    return rows[0] ? toView(rows[0]) : null;
  }

  /** One page, newest first, with transactions and the total (a window count) in one statement. */
  async list(status: GiftCardStatus | null, page: number, perPage: number): Promise<[IssuedGiftCardView[], number]> {
    const filter = status ? 'and g.status = ?' : '';
    const params = status ? [this.scope.tenantId, status] : [this.scope.tenantId];
    const rows = await this.run(
      `select ${WITH_TRANSACTIONS}, count(*) over () as total from billing.gift_cards g
       where g.tenant_id = ? ${filter} order by g.created_at desc, g.id desc limit ? offset ?`,
      [...params, perPage, (page - 1) * perPage],
    );
    if (rows.length) return [rows.map(({ total: _total, ...row }) => toView(row)), Number(rows[0].total)];
    // Past the last page the window count has no row to ride on.
    const [counted] = await this.run(`select count(*) as total from billing.gift_cards g where g.tenant_id = ? ${filter}`, params);
    return [[], Number(counted.total)];
  }
}
