import { SafeIntResolver } from 'graphql-scalars';
import { ArgsType, Field, ID, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../../common/date-time.scalar';
import { ConnectionArgs, ConnectionType } from '../../common/connection';
import { GiftCardStatus, GiftCardTransactionType } from './enums';

/** One balance movement of a gift card (the card's `transactions` items; docs/api.md documents the shape). */
@ObjectType('GiftCardTransaction', { description: "A movement of a gift card's balance" })
export class GiftCardTransactionView {
  @Field(() => ID)
  id!: string;

  @Field(() => GiftCardTransactionType)
  type!: GiftCardTransactionType;

  @Field(() => SafeIntResolver, { description: 'Signed change of the balance, integer cents' })
  amountCents!: number;

  @Field(() => SafeIntResolver, { description: 'Balance after the movement, integer cents' })
  balanceAfterCents!: number;

  @Field(() => DateTimeScalar)
  createdAt!: Date;
}

/** An issued gift card, every field of contract part 2. Values are integer cents. */
@ObjectType('IssuedGiftCard', { description: 'An issued gift card; values in integer cents' })
export class IssuedGiftCardView {
  @Field(() => ID) id!: string;
  @Field({ description: 'XXXX-XXXX-XXXX-XXXX, unique within the tenant' }) code!: string;
  @Field(() => SafeIntResolver, { description: 'Integer cents' }) initialValueCents!: number;
  @Field(() => SafeIntResolver, { description: 'Integer cents; 0 until activation loads the initial value' }) currentBalanceCents!: number;
  @Field() isActive!: boolean;
  @Field(() => GiftCardStatus) status!: GiftCardStatus;
  @Field(() => DateTimeScalar) createdAt!: Date;
  @Field(() => DateTimeScalar, { nullable: true }) activatedAt!: Date | null;
  @Field(() => DateTimeScalar, { nullable: true }) scheduledSendAt!: Date | null;
  @Field(() => DateTimeScalar, { nullable: true, description: 'When the recipient e-mail was sent' }) notificationSentAt!: Date | null;
  @Field(() => DateTimeScalar) updatedAt!: Date;
  @Field(() => ID, { nullable: true }) purchasingPatientId!: string | null;
  @Field(() => String, { nullable: true }) purchasingPatientName!: string | null;
  @Field(() => String, { nullable: true }) purchasingPatientEmail!: string | null;
  @Field(() => String, { nullable: true }) purchasingPatientPhone!: string | null;
  @Field(() => ID, { nullable: true }) recipientPatientId!: string | null;
  @Field(() => String, { nullable: true }) recipientPatientName!: string | null;
  @Field(() => String, { nullable: true }) recipientPatientEmail!: string | null;
  @Field(() => String, { nullable: true }) recipientPatientPhone!: string | null;
  @Field(() => String, { nullable: true }) recipientNote!: string | null;
  @Field(() => ID, { nullable: true }) chargeItemId!: string | null;
  @Field() suppressRecipientNotification!: boolean;
  @Field(() => [GiftCardTransactionView], { description: 'Oldest first' }) transactions!: GiftCardTransactionView[];
}

/** IssuedGiftCards as a Relay connection (docs/api.md, "Pagination"). */
@ObjectType('IssuedGiftCardConnection')
export class IssuedGiftCardConnection extends ConnectionType(IssuedGiftCardView, 'IssuedGiftCard') {}

/** Filters of `issuedGiftCards`, newest first. */
@ArgsType()
export class IssuedGiftCardListArgs extends ConnectionArgs {
  @Field(() => GiftCardStatus, { nullable: true, description: 'Only cards in this state' })
  status?: GiftCardStatus | null;
}
