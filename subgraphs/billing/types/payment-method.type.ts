import { DateTimeISOResolver, JSONObjectResolver } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { AccountHolderType, PaymentMethodType, WalletType } from './enums';

/** The billing contact the processor collected (personal data). */
@ObjectType('PaymentMethodBillingContact', { description: 'Who pays, as the processor collected it (personal data)' })
export class BillingContactType {
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => String, { nullable: true }) addressLine1!: string | null;
  @Field(() => String, { nullable: true }) addressLine2!: string | null;
  @Field(() => String, { nullable: true }) city!: string | null;
  @Field(() => String, { nullable: true }) state!: string | null;
  @Field(() => String, { nullable: true }) postalCode!: string | null;
  @Field(() => String, { nullable: true }) country!: string | null;
  @Field(() => String, { nullable: true }) email!: string | null;
  @Field(() => String, { nullable: true }) phone!: string | null;
}

/**
 * A patient's payment method: the contract's record (part 2) plus GraphQL-only details. Digit
 * fields are strings here so leading zeros survive; REST sends `accountNumberLast4` and
 * `routingNumber` as the contract's integers.
 */
@ObjectType('PaymentMethod', { description: 'A tokenised payment method of a patient' })
export class PaymentMethodView {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  patientId!: string;

  @Field(() => ID, { description: "The processor's id of the method" })
  processorPaymentMethodId!: string;

  @Field(() => ID, { nullable: true })
  paymentMethodConfigId!: string | null;

  @Field(() => String, { nullable: true })
  fingerprint!: string | null;

  @Field(() => String, { nullable: true })
  brand!: string | null;

  @Field(() => String, { nullable: true, description: "Last 4 digits (a bank account's for ACH)" })
  last4!: string | null;

  @Field(() => Int, { nullable: true })
  expMonth!: number | null;

  @Field(() => Int, { nullable: true })
  expYear!: number | null;

  @Field(() => AccountHolderType, { nullable: true, description: 'ACH only' })
  accountHolderType!: AccountHolderType | null;

  @Field(() => String, { nullable: true, description: 'Last 4 digits of the bank account, as text (ACH)' })
  accountNumberLast4!: string | null;

  @Field(() => String, { nullable: true })
  bankName!: string | null;

  @Field(() => String, { nullable: true, description: 'ABA routing number, 9 digits as text (ACH)' })
  routingNumber!: string | null;

  @Field(() => WalletType, { nullable: true, description: 'WALLET_PAY only' })
  walletType!: WalletType | null;

  @Field(() => String, { nullable: true, description: 'Human description, e.g. "visa ending in 4242"' })
  description!: string | null;

  @Field(() => PaymentMethodType)
  type!: PaymentMethodType;

  @Field()
  isDefault!: boolean;

  @Field()
  isArchived!: boolean;

  @Field(() => BillingContactType, { nullable: true })
  billingContact!: BillingContactType | null;

  @Field(() => JSONObjectResolver, { nullable: true })
  metadata!: Record<string, unknown> | null;

  @Field(() => DateTimeISOResolver)
  createdDate!: Date;

  @Field(() => DateTimeISOResolver)
  updatedDate!: Date;
}
