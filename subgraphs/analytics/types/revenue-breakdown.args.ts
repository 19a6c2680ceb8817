import { SafeIntResolver } from 'graphql-scalars';
import { ArgsType, Field, ID } from 'type-graphql';
import { ConnectionArgsOf } from '../../common/connection';
import { SortDirection } from '../../common/pagination';
import { PaymentMedium, RevenueBreakdownSortField, RevenueGroupBy, RevenueGroupSortField, RevenueItemType } from './revenue-enums';

const LIST = { nullable: true } as const;

/** The filters every 4.3 endpoint takes. Amount bounds are integer cents, like every amount in the answers. */
@ArgsType()
export class RevenueFilterArgs {
  @Field({ description: 'IANA time zone name (required): dates without an offset and created_date are read in it' })
  timezone!: string;

  @Field(() => String, { nullable: true, description: 'From this date (YYYY-MM-DD, the start of that day in timezone) or ISO 8601 date-time, inclusive' })
  startDate?: string | null;

  @Field(() => String, { nullable: true, description: 'Up to this date (YYYY-MM-DD, the whole day in timezone) or ISO 8601 date-time, inclusive' })
  endDate?: string | null;

  @Field(() => [ID], { ...LIST, description: 'Lines of any of these locations' })
  locationIds?: string[] | null;

  @Field(() => [String], { ...LIST, description: 'Lines whose location name is one of these (exact, case-insensitive)' })
  locationNames?: string[] | null;

  @Field(() => [ID], LIST)
  providerIds?: string[] | null;

  @Field(() => [String], { ...LIST, description: 'Exact, case-insensitive' })
  providerNames?: string[] | null;

  @Field(() => [ID], LIST)
  patientIds?: string[] | null;

  @Field(() => [String], { ...LIST, description: 'Exact, case-insensitive' })
  patientNames?: string[] | null;

  @Field(() => [String], { ...LIST, description: 'Exact, case-insensitive' })
  itemCategories?: string[] | null;

  @Field(() => [RevenueItemType], LIST)
  itemTypes?: RevenueItemType[] | null;

  @Field(() => [String], { ...LIST, description: 'Exact, case-insensitive' })
  itemNames?: string[] | null;

  @Field(() => [PaymentMedium], LIST)
  paymentMediums?: PaymentMedium[] | null;

  @Field(() => String, { nullable: true, description: 'Lines whose comment contains this text (case-insensitive)' })
  comment?: string | null;
}

/** `revenue-breakdown-groups`. */
@ArgsType()
export class RevenueGroupsArgs extends RevenueFilterArgs {
  @Field(() => RevenueGroupBy)
  groupBy!: RevenueGroupBy;

  @Field(() => SafeIntResolver, { nullable: true, description: 'Lines with a net amount of at least this many cents' })
  minNetCents?: number | null;

  @Field(() => SafeIntResolver, { nullable: true, description: 'Lines with a net amount of at most this many cents' })
  maxNetCents?: number | null;
}

/** `revenue-breakdown-summary`: the filters only. */
@ArgsType()
export class RevenueSummaryArgs extends RevenueFilterArgs {
  @Field(() => SafeIntResolver, { nullable: true, description: 'Cents' })
  minNetCents?: number | null;

  @Field(() => SafeIntResolver, { nullable: true, description: 'Cents' })
  maxNetCents?: number | null;
}

/** `revenue-breakdown-group-summaries`. */
@ArgsType()
export class RevenueGroupSummariesArgs extends RevenueFilterArgs {
  @Field(() => RevenueGroupBy)
  groupBy!: RevenueGroupBy;

  @Field(() => RevenueGroupSortField, { defaultValue: RevenueGroupSortField.CREATED_DATE })
  sortBy: RevenueGroupSortField = RevenueGroupSortField.CREATED_DATE;

  @Field(() => SortDirection, { defaultValue: SortDirection.DESC })
  sortDirection: SortDirection = SortDirection.DESC;

  @Field(() => SafeIntResolver, { nullable: true, description: 'Cents' })
  minNetCents?: number | null;

  @Field(() => SafeIntResolver, { nullable: true, description: 'Cents' })
  maxNetCents?: number | null;
}

/** `revenue-breakdown`: the lines, one window of a connection, with the row-level group filters a grouped table drills down with. */
@ArgsType()
export class RevenueBreakdownArgs extends ConnectionArgsOf(RevenueFilterArgs) {
  @Field(() => RevenueGroupBy, { nullable: true, description: 'What groupKey refers to' })
  groupBy?: RevenueGroupBy | null;

  @Field(() => String, { nullable: true, description: 'Only the lines of this group (a groupKey from the groups endpoint; empty: the group whose key is null)' })
  groupKey?: string | null;

  @Field(() => RevenueBreakdownSortField, { defaultValue: RevenueBreakdownSortField.CREATED_DATE })
  sortBy: RevenueBreakdownSortField = RevenueBreakdownSortField.CREATED_DATE;

  @Field(() => SortDirection, { defaultValue: SortDirection.DESC })
  sortDirection: SortDirection = SortDirection.DESC;

  @Field(() => SafeIntResolver, { nullable: true, description: 'Cents' })
  minNetCents?: number | null;

  @Field(() => SafeIntResolver, { nullable: true, description: 'Cents' })
  maxNetCents?: number | null;

  @Field(() => String, { nullable: true, description: 'Row-level group filter: this item category' })
  itemCategory?: string | null;

  @Field(() => String, { nullable: true, description: 'Row-level group filter: this location id' })
  location?: string | null;

  @Field(() => String, { nullable: true, description: 'Row-level group filter: this provider id (empty: no provider)' })
  provider?: string | null;

  @Field(() => String, { nullable: true, description: 'Row-level group filter: this payment medium' })
  paymentMedium?: string | null;

  @Field(() => String, { nullable: true, description: 'Row-level group filter: this calendar day (YYYY-MM-DD) in timezone' })
  createdDate?: string | null;
}
