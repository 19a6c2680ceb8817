import { registerEnumType } from 'type-graphql';

export { PaymentMedium, RevenueItemType } from '../../common/revenue-line-enums';

/** `group_by` of the product sales revenue breakdown (contract part 4.3); snake_case values, as REST sends them. */
export enum RevenueGroupBy {
  LOCATION = 'location',
  PROVIDER = 'provider',
  ITEM_CATEGORY = 'item_category',
  PAYMENT_MEDIUM = 'payment_medium',
  CREATED_DATE = 'created_date',
}
registerEnumType(RevenueGroupBy, { name: 'RevenueGroupBy', description: 'What revenue lines are grouped by; created_date is the calendar day in the requested timezone' });

/** `sort_by` whitelist of `revenue-breakdown` (the lines); ties fall back to the time, then the id. */
export enum RevenueBreakdownSortField {
  CREATED_DATE = 'created_date',
  LOCATION = 'location',
  PROVIDER = 'provider',
  PATIENT = 'patient',
  ITEM_CATEGORY = 'item_category',
  ITEM_TYPE = 'item_type',
  ITEM_NAME = 'item_name',
  PAYMENT_MEDIUM = 'payment_medium',
  GROSS_AMOUNT = 'gross_amount',
  DISCOUNT_AMOUNT = 'discount_amount',
  NET_AMOUNT = 'net_amount',
}
registerEnumType(RevenueBreakdownSortField, { name: 'RevenueBreakdownSortField', description: 'Fields revenue lines can be ordered by (names and amounts of the line)' });

/** `sort_by` whitelist of `revenue-breakdown-group-summaries`; `created_date` orders by each group's latest line. */
export enum RevenueGroupSortField {
  CREATED_DATE = 'created_date',
  GROUP_LABEL = 'group_label',
  COUNT = 'count',
  GROSS_AMOUNT = 'gross_amount',
  DISCOUNT_AMOUNT = 'discount_amount',
  NET_AMOUNT = 'net_amount',
  AVERAGE_NET_AMOUNT = 'average_net_amount',
}
registerEnumType(RevenueGroupSortField, { name: 'RevenueGroupSortField', description: "Fields group summaries can be ordered by; created_date means the group's most recent line" });

/** Which table a revenue line comes from. */
export enum RevenueLineSource {
  CHARGE_ITEM = 'charge_item',
  SOLD_PACKAGE = 'sold_package',
}
registerEnumType(RevenueLineSource, { name: 'RevenueLineSource', description: 'A charge item (a product or service sale) or a sold package' });
