import { registerEnumType } from 'type-graphql';

/** `group_by` of the product sales revenue breakdown (contract part 4.3); snake_case values, as REST sends them. */
export enum RevenueGroupBy {
  location = 'location',
  provider = 'provider',
  item_category = 'item_category',
  payment_medium = 'payment_medium',
  created_date = 'created_date',
}
registerEnumType(RevenueGroupBy, { name: 'RevenueGroupBy', description: 'What revenue lines are grouped by; created_date is the calendar day in the requested timezone' });

/** `sort_by` whitelist of `revenue-breakdown` (the lines); ties fall back to the time, then the id. */
export enum RevenueBreakdownSortField {
  created_date = 'created_date',
  location = 'location',
  provider = 'provider',
  patient = 'patient',
  item_category = 'item_category',
  item_type = 'item_type',
  item_name = 'item_name',
  payment_medium = 'payment_medium',
  gross_amount = 'gross_amount',
  discount_amount = 'discount_amount',
  net_amount = 'net_amount',
}
registerEnumType(RevenueBreakdownSortField, { name: 'RevenueBreakdownSortField', description: 'Fields revenue lines can be ordered by (names and amounts of the line)' });

/** `sort_by` whitelist of `revenue-breakdown-group-summaries`; `created_date` orders by each group's latest line. */
export enum RevenueGroupSortField {
  created_date = 'created_date',
  group_label = 'group_label',
  count = 'count',
  gross_amount = 'gross_amount',
  discount_amount = 'discount_amount',
  net_amount = 'net_amount',
  average_net_amount = 'average_net_amount',
}
registerEnumType(RevenueGroupSortField, { name: 'RevenueGroupSortField', description: "Fields group summaries can be ordered by; created_date means the group's most recent line" });
