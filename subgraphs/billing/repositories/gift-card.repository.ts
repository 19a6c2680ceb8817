import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { storedId } from '../../../platform/ids';
import type { TenantScope } from '../../../platform/tenant-scope';
import { GiftCardTransaction, type GiftCardTransactionType } from '../entities/gift-card-transaction.entity';
import { toConnection, type Connection } from '../../common/connection';
import { findSlice, keyValues } from '../../common/keyset';
import type { ListWindow, SortKey } from '../../common/list-window';
import { GiftCard } from '../entities/gift-card.entity';
import { Notification } from '../entities/notification.entity';
import { ChargeItem } from '../entities/revenue-line.entity';
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

const transactionView = (t: GiftCardTransaction): GiftCardTransactionView => ({
  id: t.id,
  type: t.type as GiftCardTransactionView['type'],
  amountCents: t.amountCents,
  balanceAfterCents: t.balanceAfterCents,
  createdAt: t.createdAt,
});

/** The GraphQL view of a card and its transactions (oldest first). */
function cardView(card: GiftCard, transactions: GiftCardTransaction[]): IssuedGiftCardView {
  return {
    id: card.id,
    code: card.code,
    initialValueCents: card.initialValueCents,
    currentBalanceCents: card.currentBalanceCents,
    isActive: card.isActive,
    status: card.status as GiftCardStatus,
    createdAt: card.createdAt,
    activatedAt: card.activatedAt,
    scheduledSendAt: card.scheduledSendDate,
    notificationSentAt: card.notificationSentAt,
    updatedAt: card.updatedAt,
    purchasingPatientId: card.purchasingPatientId,
    purchasingPatientName: card.purchasingPatientName,
    purchasingPatientEmail: card.purchasingPatientEmail,
    purchasingPatientPhone: card.purchasingPatientPhone,
    recipientPatientId: card.recipientPatientId,
    recipientPatientName: card.recipientPatientName,
    recipientPatientEmail: card.recipientPatientEmail,
    recipientPatientPhone: card.recipientPatientPhone,
    recipientNote: card.recipientNote,
    chargeItemId: card.chargeItemId,
    suppressRecipientNotification: card.suppressRecipientNotification,
    transactions: transactions.map(transactionView),
  };
}

/**
 * Gift cards, their balance movements and queued e-mails, through the ORM under the tenant guard.
 * Writes run in the caller's transaction when there is one (issue and activation always do).
 */
export class GiftCardRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /**
   * Inserts a PENDING card; null when the code is already taken in this tenant (the caller draws
   * another). `on conflict do nothing` through the query builder, not a failed flush: a failed
   * statement would abort the caller's transaction, which still has to insert the next draw.
   */
  async insert(card: NewGiftCard): Promise<IssuedGiftCardView | null> {
    const { initialValue, ...fields } = card;
    const now = new Date();
    const row = Object.assign(new GiftCard(), { ...fields, tenantId: this.scope.tenantId, status: 'PENDING', isActive: false, initialValueCents: initialValue, currentBalanceCents: 0, createdAt: now, updatedAt: now });
    const { affectedRows } = await this.em.createQueryBuilder(GiftCard).insert({ ...row }).onConflict(['tenantId', 'code']).ignore().execute('run');
    return affectedRows ? cardView(row, []) : null;
  }

  /**
   * PENDING -> ACTIVE, the initial value loaded onto the balance, under the card's row lock (the
   * caller's transaction holds it until commit): of any number of concurrent activations the
   * first finds the card PENDING; the others wait for its commit and find it ACTIVE. Null when the
   * card is not PENDING, or not the tenant's (`statusOf` tells which).
   */
  async activate(id: string): Promise<IssuedGiftCardView | null> {
    const key = storedId(id);
    const card = key ? await this.em.findOne(GiftCard, { id: key, tenantId: this.scope.tenantId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true }) : null;
    if (!card || card.status !== 'PENDING') return null;
    card.status = 'ACTIVE';
    card.isActive = true;
    card.activatedAt = new Date();
    card.currentBalanceCents += card.initialValueCents;
    await this.em.flush();
    return cardView(card, []);
  }

  /** Records a balance movement of one of the tenant's cards. */
  async addTransaction(giftCardId: string, id: string, type: GiftCardTransactionType, amountCents: number, balanceAfterCents: number, requestKey: string | null = null): Promise<GiftCardTransactionView> {
    const transaction = this.em.create(GiftCardTransaction, { id, tenantId: this.scope.tenantId, giftCardId, type, amountCents, balanceAfterCents, requestKey } as never);
    await this.em.flush();
    return transactionView(transaction);
  }

  /** Whether a movement was made under the caller's Idempotency-Key `requestKey`: of the card `id`, of another, or none (null). */
  async movedUnder(requestKey: string, id: string): Promise<'this card' | 'another card' | null> {
    const row = await this.em.findOne(GiftCardTransaction, { tenantId: this.scope.tenantId, requestKey });
    return row ? (row.giftCardId === storedId(id) ? 'this card' : 'another card') : null;
  }

  /** Records the recipient e-mail, due at the scheduled send date or now, whichever is later, under the job that will send it; returns when it is due. */
  async queueNotification(id: string, jobId: string, giftCardId: string, recipientEmail: string, scheduledSendDate: Date | null): Promise<Date> {
    const now = new Date();
    const due = scheduledSendDate && scheduledSendDate > now ? scheduledSendDate : now;
    this.em.create(Notification, { id, tenantId: this.scope.tenantId, giftCardId, kind: 'gift_card_recipient', recipientEmail, dueAt: due, nextAttemptAt: due, jobId } as never);
    await this.em.flush();
    return due;
  }

  /** The card's state, or null when the tenant has no such card (tells 404 from 409). */
  async statusOf(id: string): Promise<GiftCardStatus | null> {
    const key = storedId(id);
    const card = key ? await this.em.findOne(GiftCard, { id: key, tenantId: this.scope.tenantId }) : null;
    return (card?.status as GiftCardStatus | undefined) ?? null;
  }

  /** True when the tenant has this charge item. */
  async chargeItemExists(id: string): Promise<boolean> {
    const key = storedId(id);
    return !!key && (await this.em.count(ChargeItem, { id: key, tenantId: this.scope.tenantId })) > 0;
  }

  /** The card with its transactions, or null (unknown, malformed and other tenants' ids alike). */
  async findById(id: string): Promise<IssuedGiftCardView | null> {
    const key = storedId(id);
    const card = key ? await this.em.findOne(GiftCard, { id: key, tenantId: this.scope.tenantId }) : null;
    if (!card) return null;
    return cardView(card, (await this.transactionsOf([card.id])).get(card.id) ?? []);
  }

  /** One window, newest first, with transactions, and the total. */
  async list(status: GiftCardStatus | null, window: ListWindow): Promise<Connection<IssuedGiftCardView>> {
    const slice = await findSlice(this.em, GiftCard, { tenantId: this.scope.tenantId, ...(status ? { status } : {}) }, GIFT_CARD_KEYS, window);
    const transactions = await this.transactionsOf(slice.rows.map((card) => card.id));
    return toConnection(slice, keyValues(GIFT_CARD_KEYS), (card) => cardView(card, transactions.get(card.id) ?? []));
  }

  /** The transactions of these cards in one query, each card's oldest first. */
  private async transactionsOf(cardIds: string[]): Promise<Map<string, GiftCardTransaction[]>> {
    const byCard = new Map<string, GiftCardTransaction[]>();
    if (!cardIds.length) return byCard;
    const rows = await this.em.find(GiftCardTransaction, { tenantId: this.scope.tenantId, giftCardId: { $in: cardIds } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    for (const row of rows) byCard.set(row.giftCardId, [...(byCard.get(row.giftCardId) ?? []), row]);
    return byCard;
  }
}

/** The order of the issued card list: newest first, then id. */
export const GIFT_CARD_KEYS: SortKey<GiftCard>[] = [
  { field: 'createdAt', direction: 'desc', kind: 'date', value: (row) => row.createdAt },
  { field: 'id', direction: 'desc', kind: 'uuid', value: (row) => row.id },
];
