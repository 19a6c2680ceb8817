import { Entity, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/** Kinds of balance movement; activation is the only one so far. */
export type GiftCardTransactionType = 'ACTIVATION';

/** One movement of a gift card's balance, in integer cents (the card's `transactions`). */
@Entity({ tableName: 'gift_card_transactions' })
export class GiftCardTransaction extends TenantScopedEntity {
  @Property({ type: 'uuid', fieldName: 'gift_card_id' })
  giftCardId!: string;

  @Property({ type: 'text' })
  type!: GiftCardTransactionType;

  @Property({ type: 'integer', fieldName: 'amount_cents' })
  amountCents!: number;

  @Property({ type: 'integer', fieldName: 'balance_after_cents' })
  balanceAfterCents!: number;

  /** The Idempotency-Key of the request that made this movement, if it sent one: its retry answers the card. Hidden. */
  @Property({ type: 'text', fieldName: 'request_key', nullable: true, hidden: true })
  requestKey: string | null = null;
}
