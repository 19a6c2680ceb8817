import { registerEnumType } from 'type-graphql';

/** How a widget draws its query's result. Lower-case values, as REST clients send them. */
export enum ChartType {
  LINE = 'line',
  BAR = 'bar',
  AREA = 'area',
  PIE = 'pie',
  TABLE = 'table',
  KPI = 'kpi',
}
registerEnumType(ChartType, { name: 'ChartType', description: 'How a widget draws its data' });

/**
 * `sort_by` whitelist of the dashboard list. Values are the response's own field names; an enum
 * makes an unknown value a 422 that lists the allowed ones (the bridge's enum coercion).
 */
export enum DashboardSortField {
  NAME = 'name',
  CREATED_AT = 'createdDate',
  UPDATED_AT = 'updatedDate',
}
registerEnumType(DashboardSortField, { name: 'DashboardSortField', description: 'Fields a dashboard list can be ordered by' });

/** `sort_by` whitelist of the widget list. */
export enum WidgetSortField {
  NAME = 'name',
  CHART_TYPE = 'chartType',
  CREATED_AT = 'createdDate',
  UPDATED_AT = 'updatedDate',
}
registerEnumType(WidgetSortField, { name: 'WidgetSortField', description: 'Fields a widget list can be ordered by' });

/** Order of the campaign list. */
export enum CampaignSortField {
  NAME = 'name',
  STARTS_AT = 'startDate',
  ENDS_AT = 'endDate',
  BUDGET_CENTS = 'budgetCents',
  CREATED_AT = 'createdDate',
  UPDATED_AT = 'updatedDate',
}
registerEnumType(CampaignSortField, { name: 'CampaignSortField', description: 'Fields a campaign list can be ordered by' });
