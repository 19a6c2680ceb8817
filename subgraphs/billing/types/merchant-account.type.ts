import { SafeIntResolver } from 'graphql-scalars';
import { Field, Float, ID, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../../common/date-time.scalar';

/** A merchant account (contract part 2); `locations` resolve from the tenant subgraph by federation. */
@ObjectType('MerchantAccount', { description: 'A merchant account at the payment processor' })
export class MerchantAccountView {
  @Field(() => ID, { description: "The processor's id of the merchant account" })
  id!: string;

  @Field()
  name!: string;

  @Field({ description: "The tenant's default account (exactly one is)" })
  isDefault!: boolean;

  @Field(() => Float, { description: 'Percent, e.g. 2.9 for 2.9 %' })
  cardProcessingFee!: number;

  @Field(() => SafeIntResolver, { description: 'Integer cents, e.g. 30 for 0.30' })
  perTransactionFeeCents!: number;

  @Field(() => Float, { description: 'Percent' })
  inPersonCardProcessingFee!: number;

  @Field(() => SafeIntResolver, { description: 'Integer cents' })
  inPersonPerTransactionFeeCents!: number;

  @Field(() => DateTimeScalar)
  createdAt!: Date;

  @Field(() => DateTimeScalar)
  updatedAt!: Date;

  @Field(() => [ID], { description: 'Ids of the locations, sorted' })
  locationIds!: string[];
}
