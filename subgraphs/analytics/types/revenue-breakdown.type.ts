import { DateTimeScalar } from '../../common/date-time.scalar';
import { SafeIntResolver } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { ConnectionType } from '../../common/connection';
import { PaymentMedium, RevenueItemType, RevenueLineSource } from './revenue-enums';

// Money is SafeInt everywhere on the graph (docs/api.md, Schema style): sums of cents outgrow GraphQL's 32-bit Int long before a practice's revenue does.

/** One group of a grouped revenue table. */
@ObjectType('RevenueGroupItem', { description: 'A group key and how many lines it holds' })
export class RevenueGroupItemType {
  @Field(() => String, { nullable: true, description: 'Location or provider id, item category, payment medium, or YYYY-MM-DD in timezone; null for lines without a provider' })
  groupKey!: string | null;

  @Field(() => String, { nullable: true, description: 'What to show for the key: the location or provider name, otherwise the key itself' })
  groupLabel!: string | null;

  @Field(() => Int)
  totalCount!: number;
}

/** Line count and amounts, shared by a group summary and the summary. */
// Not emitted on its own: only the subclasses are reachable from a resolver.
@ObjectType('RevenueAmounts')
abstract class RevenueAmounts {
  @Field(() => Int)
  count!: number;

  @Field(() => SafeIntResolver, { description: 'Cents' })
  grossCents!: number;

  @Field(() => SafeIntResolver, { description: 'Cents' })
  discountCents!: number;

  @Field(() => SafeIntResolver, { description: 'Cents' })
  netCents!: number;

  @Field(() => SafeIntResolver, { nullable: true, description: 'Net amount per line in cents, rounded half away from zero; null when there are no lines' })
  averageNetCents!: number | null;
}

/** Sums of one group. */
@ObjectType('RevenueGroupSummary', { description: "A group's line count and amounts (integer cents)" })
export class RevenueGroupSummaryType extends RevenueAmounts {
  @Field(() => String, { nullable: true })
  groupKey!: string | null;

  @Field(() => String, { nullable: true })
  groupLabel!: string | null;
}

/** Sums over every filtered line. */
@ObjectType('RevenueSummary', { description: 'Count and amounts (integer cents) of all filtered lines' })
export class RevenueSummaryType extends RevenueAmounts {
  @Field(() => Int, { description: 'Lines that are charge items (product and service sales)' })
  chargeItemCount!: number;

  @Field(() => Int, { description: 'Lines that are sold packages' })
  soldPackageCount!: number;

  @Field(() => DateTimeScalar, { nullable: true, description: 'The earliest line; null when there is none' })
  firstLineAt!: Date | null;

  @Field(() => DateTimeScalar, { nullable: true, description: 'The latest line' })
  lastLineAt!: Date | null;
}

/** One revenue line, as the detail table shows it. */
@ObjectType('RevenueBreakdownItem', { description: 'A charge item or a sold package; names as recorded at sale time; amounts in integer cents' })
export class RevenueBreakdownItemType {
  @Field(() => ID)
  id!: string;

  @Field(() => RevenueLineSource)
  source!: RevenueLineSource;

  @Field(() => ID)
  locationId!: string;

  @Field()
  locationName!: string;

  @Field(() => ID, { nullable: true })
  providerId!: string | null;

  @Field(() => String, { nullable: true })
  providerName!: string | null;

  @Field(() => ID, { nullable: true })
  patientId!: string | null;

  @Field(() => String, { nullable: true })
  patientName!: string | null;

  @Field()
  itemCategory!: string;

  @Field(() => RevenueItemType)
  itemType!: RevenueItemType;

  @Field()
  itemName!: string;

  @Field(() => PaymentMedium)
  paymentMedium!: PaymentMedium;

  @Field(() => SafeIntResolver, { description: 'Cents' })
  grossCents!: number;

  @Field(() => SafeIntResolver, { description: 'Cents' })
  discountCents!: number;

  @Field(() => SafeIntResolver, { description: 'Cents: gross minus discount' })
  netCents!: number;

  @Field(() => String, { nullable: true })
  comment!: string | null;

  @Field(() => DateTimeScalar, { description: 'When the sale was recorded (UTC)' })
  createdAt!: Date;

  @Field({ description: 'The calendar day of createdAt in the requested timezone (the created_date group key)' })
  localDate!: string;
}

/** Revenue lines as a Relay connection (docs/api.md, "Pagination"). */
@ObjectType('RevenueBreakdownConnection')
export class RevenueBreakdownConnection extends ConnectionType(RevenueBreakdownItemType, 'RevenueBreakdownItem') {}
