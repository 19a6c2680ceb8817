import { SafeIntResolver } from 'graphql-scalars';
import { Field, ID, InputType } from 'type-graphql';
import { DateTimeScalar } from '../../common/date-time.scalar';

/** `issueGiftCard`: a new PENDING card. Values are integer cents; names and contacts default to the directory's when a patient id is given. */
@InputType('IssueGiftCardInput', { description: 'A gift card to issue (PENDING until activated)' })
export class IssueGiftCardInput {
  @Field(() => SafeIntResolver, { description: 'Value in integer cents (5000 = 50.00 in the tenant currency), 1 to 100000000' })
  initialValueCents!: number;

  @Field(() => ID, { nullable: true, description: "The buyer, if a patient of the tenant; fills the purchaser's name, e-mail and phone unless given" })
  purchasingPatientId?: string | null;

  @Field(() => String, { nullable: true })
  purchasingPatientName?: string | null;

  @Field(() => String, { nullable: true })
  purchasingPatientEmail?: string | null;

  @Field(() => String, { nullable: true })
  purchasingPatientPhone?: string | null;

  @Field(() => ID, { nullable: true, description: "The recipient, if a patient of the tenant; fills the recipient's name, e-mail and phone unless given" })
  recipientPatientId?: string | null;

  @Field(() => String, { nullable: true })
  recipientPatientName?: string | null;

  @Field(() => String, { nullable: true, description: 'Where the notification goes; required unless suppressRecipientNotification' })
  recipientPatientEmail?: string | null;

  @Field(() => String, { nullable: true })
  recipientPatientPhone?: string | null;

  @Field(() => String, { nullable: true, description: 'Shown in the notification, at most 1000 characters' })
  recipientNote?: string | null;

  @Field(() => DateTimeScalar, { nullable: true, description: 'Send the notification no earlier than this; a past date means at activation' })
  scheduledSendAt?: Date | null;

  @Field(() => Boolean, { defaultValue: false, description: 'Never e-mail the recipient (e.g. a card handed over in person)' })
  suppressRecipientNotification: boolean = false;

  @Field(() => ID, { nullable: true, description: 'The charge item that sold the card (recordChargeItem)' })
  chargeItemId?: string | null;
}

