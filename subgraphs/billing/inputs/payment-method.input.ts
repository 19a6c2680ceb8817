import { JSONResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int } from 'type-graphql';
import { DateTimeInput } from '../../common/input-scalars';
import { NotFreeText } from '../../../platform/stored-text-rule';
import { AccountHolderType, PaymentMethodType, WalletType } from '../types/enums';

// Contract part 2, "Patient payment method": field names exactly as the REST body spells them.

/** The card behind a card (or wallet) payment method: display details only. */
@InputType('PaymentMethodCardInput', { description: 'The card behind a card (or wallet) payment method: display details only, never its number' })
export class CardInput {
  @Field({ description: 'Card brand as the processor names it, e.g. visa' })
  brand!: string;

  @Field({ description: 'Last four digits, exactly 4 digits' })
  last4!: string;

  @Field(() => Int, { description: '1 to 12' })
  expMonth!: number;

  @Field(() => Int, { description: 'Four-digit year; the card must not have expired' })
  expYear!: number;
}

/** The bank account behind an ACH payment method: display details only. */
@InputType('PaymentMethodAchInput', { description: 'The bank account behind an ACH payment method: display details only, never its number' })
export class AchInput {
  @Field(() => AccountHolderType)
  accountHolderType!: AccountHolderType;

  @Field({ description: 'Last four digits of the account number, exactly 4 digits' })
  accountNumberLast4!: string;

  @Field()
  bankName!: string;

  @Field({ description: 'ABA routing number: 9 digits with a valid checksum' })
  routingNumber!: string;
}

/** A mobile wallet (Apple Pay, Google Pay, ...). */
@InputType('PaymentMethodWalletPayInput', { description: 'The mobile wallet of a WALLET_PAY payment method' })
export class WalletPayInput {
  @Field(() => WalletType)
  type!: WalletType;

  @Field(() => String, { nullable: true })
  brand?: string | null;

  @Field(() => String, { nullable: true })
  brandDesc?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;
}

/** Who pays, as the processor collected it (personal data: stored hidden, never logged). */
@InputType('PaymentMethodBillingContactInput', { description: 'Who pays, as the processor collected it (personal data: stored hidden, never logged)' })
export class BillingContactInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) addressLine1?: string | null;
  @Field(() => String, { nullable: true }) addressLine2?: string | null;
  @Field(() => String, { nullable: true }) city?: string | null;
  @Field(() => String, { nullable: true }) state?: string | null;
  @Field(() => String, { nullable: true }) postalCode?: string | null;
  @Field(() => String, { nullable: true }) country?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) phone?: string | null;
}

/** Body of `POST /user/patient/payment-methods/create` / `createPatientPaymentMethod`: a method tokenised by the processor. */
@InputType('CreatePaymentMethodInput', { description: 'A payment method already tokenised by the processor; full card or account numbers are refused' })
export class CreatePaymentMethodInput {
  @Field(() => ID, { description: "The processor's id of the tokenised method" })
  @NotFreeText('processor-issued')
  paymentMethodId!: string;

  @Field(() => ID, { nullable: true })
  @NotFreeText('processor-issued')
  paymentMethodConfigId?: string | null;

  @Field(() => String, { nullable: true, description: 'Identifies the underlying card or account; the same one for the same patient returns the existing record' })
  @NotFreeText('processor-issued')
  fingerprint?: string | null;

  @Field(() => PaymentMethodType, { description: 'What the method is; REST also takes the lower-case spelling' })
  methodType!: PaymentMethodType;

  @Field(() => CardInput, { nullable: true, description: 'Required when methodType is card; optional for wallet_pay (the card in the wallet)' })
  card?: CardInput | null;

  @Field(() => AchInput, { nullable: true, description: 'Required when methodType is ach' })
  ach?: AchInput | null;

  @Field(() => WalletPayInput, { nullable: true, description: 'Required when methodType is wallet_pay' })
  walletPay?: WalletPayInput | null;

  @Field(() => BillingContactInput, { nullable: true })
  billingContact?: BillingContactInput | null;

  // JSON, checked to be an object by the service: JSONObject's own parser would fail without a code (a 500).
  @Field(() => JSONResolver, { nullable: true, description: 'Free-form JSON object; must not carry card or account numbers' })
  metadata?: unknown;

  @Field(() => DateTimeInput, { nullable: true, description: 'When the processor created the method' })
  createdAt?: Date | null;

  @Field(() => DateTimeInput, { nullable: true, description: 'When the processor last changed the method' })
  updatedAt?: Date | null;
}
