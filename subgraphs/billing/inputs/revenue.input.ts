import { SafeIntResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int } from 'type-graphql';
import { ChargeItemType, PaymentMedium } from '../types/enums';

/** `recordChargeItem`: a product or service sale. Money in integer cents; names are taken from the directory. */
@InputType('RecordChargeItemInput', { description: 'A product or service sale' })
export class RecordChargeItemInput {
  @Field(() => ID, { description: 'A location of the tenant' })
  locationId!: string;

  @Field(() => ID, { nullable: true, description: 'A provider of the tenant' })
  providerId?: string | null;

  @Field(() => ID, { nullable: true, description: 'A patient of the tenant' })
  patientId?: string | null;

  @Field({ description: 'e.g. Physical therapy, Retail' })
  itemCategory!: string;

  @Field(() => ChargeItemType)
  itemType!: ChargeItemType;

  @Field()
  itemName!: string;

  @Field(() => PaymentMedium)
  paymentMedium!: PaymentMedium;

  @Field(() => SafeIntResolver, { description: 'Integer cents before discount' })
  grossCents!: number;

  @Field(() => SafeIntResolver, { defaultValue: 0, description: 'Integer cents, at most grossCents' })
  discountCents: number = 0;

  @Field(() => String, { nullable: true })
  comment?: string | null;
}

/** `recordSoldPackage`: a package of sessions sold. */
@InputType('RecordSoldPackageInput', { description: 'A package of sessions sold' })
export class RecordSoldPackageInput {
  @Field(() => ID)
  locationId!: string;

  @Field(() => ID, { nullable: true })
  providerId?: string | null;

  @Field(() => ID, { nullable: true })
  patientId?: string | null;

  @Field({ defaultValue: 'Packages', description: 'Reported as item_category; default Packages' })
  itemCategory: string = 'Packages';

  @Field({ description: 'Package name, reported as item_name' })
  packageName!: string;

  @Field(() => Int, { nullable: true, description: 'Sessions included' })
  sessionCount?: number | null;

  @Field(() => PaymentMedium)
  paymentMedium!: PaymentMedium;

  @Field(() => SafeIntResolver, { description: 'Integer cents before discount' })
  grossCents!: number;

  @Field(() => SafeIntResolver, { defaultValue: 0 })
  discountCents: number = 0;

  @Field(() => String, { nullable: true })
  comment?: string | null;
}
