import { SafeIntResolver } from 'graphql-scalars';
import { DateTimeScalar } from '../../common/date-time.scalar';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { PaymentMedium, RevenueItemType } from './enums';

/** Fields of a recorded sale; names are snapshots taken from the directory at sale time. */
@ObjectType()
export abstract class RevenueLineView {
  @Field(() => ID) id!: string;
  @Field(() => ID) locationId!: string;
  @Field() locationName!: string;
  @Field(() => ID, { nullable: true }) providerId!: string | null;
  @Field(() => String, { nullable: true }) providerName!: string | null;
  @Field(() => ID, { nullable: true }) patientId!: string | null;
  @Field(() => String, { nullable: true }) patientName!: string | null;
  @Field() itemCategory!: string;
  @Field(() => RevenueItemType) itemType!: RevenueItemType;
  @Field() itemName!: string;
  @Field(() => PaymentMedium) paymentMedium!: PaymentMedium;
  @Field(() => SafeIntResolver, { description: 'Integer cents' }) grossCents!: number;
  @Field(() => SafeIntResolver, { description: 'Integer cents' }) discountCents!: number;
  @Field(() => SafeIntResolver, { description: 'Integer cents, gross minus discount' }) netCents!: number;
  @Field(() => String, { nullable: true }) comment!: string | null;
  @Field(() => DateTimeScalar) createdAt!: Date;
}

/** A recorded product or service sale. */
@ObjectType('ChargeItem', { description: 'A product or service sale (a revenue line)' })
export class ChargeItemView extends RevenueLineView {}

/** A recorded package sale. */
@ObjectType('SoldPackage', { description: 'A package of sessions sold (a revenue line)' })
export class SoldPackageView extends RevenueLineView {
  @Field(() => Int, { nullable: true })
  sessionCount!: number | null;
}
