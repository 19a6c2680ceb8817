import { SafeIntResolver } from 'graphql-scalars';
import { Field, Float, ID, InputType } from 'type-graphql';
import { NotFreeText } from '../../../platform/stored-text-rule';

/** `createMerchantAccount`. Processing fees are percent (2.9 = 2.9 %), per-transaction fees integer cents (30 = 0.30). */
@InputType('CreateMerchantAccountInput', { description: 'A merchant account of the tenant at the payment processor' })
export class CreateMerchantAccountInput {
  @Field(() => ID, { nullable: true, description: "The processor's id of an existing account; absent: the processor opens one" })
  @NotFreeText('processor-issued')
  processorAccountId?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'Makes opening the account at the processor safe to retry: a key of your choosing, 1 to 255 characters, kept for this one opening. ' +
      'A retry with the same key (after a timeout or SERVICE_UNAVAILABLE) opens no second account and answers the account opened first, as it was created. ' +
      'Not used with processorAccountId, which is itself unique per tenant',
  })
  idempotencyKey?: string | null;

  @Field({ description: 'Friendly name, 1 to 200 characters' })
  name!: string;

  @Field(() => Boolean, { defaultValue: false, description: "Make it the tenant's default (the tenant's first account always is)" })
  isDefault: boolean = false;

  @Field(() => Float, { description: 'Card-not-present processing fee in percent, 0 to 100, up to 4 decimals (2.9 = 2.9 %)' })
  cardProcessingFee!: number;

  @Field(() => SafeIntResolver, { description: 'Per-transaction fee in integer cents (30 = 0.30)' })
  perTransactionFeeCents!: number;

  @Field(() => Float, { description: 'In-person processing fee in percent' })
  inPersonCardProcessingFee!: number;

  @Field(() => SafeIntResolver, { description: 'In-person per-transaction fee in integer cents' })
  inPersonPerTransactionFeeCents!: number;

  @Field(() => [ID], { defaultValue: [], description: "The tenant's locations the account serves" })
  locationIds!: string[];
}
