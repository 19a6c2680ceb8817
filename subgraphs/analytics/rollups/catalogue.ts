/**
 * The hourly rollups billing publishes beside `billing.revenue_line` (docs/decisions.md, "Revenue
 * rollups"): each view sums a tenant's lines per UTC hour (`hour`) and the dimension columns
 * listed, under the line view's column names, with `line_count`, `package_count` (the sold
 * packages among them), the three amounts, `first_at` and `last_at`. Kept current by billing in
 * the transaction that writes the lines.
 */
export interface RollupView {
  name: string;
  relation: string;
  /** Dimension columns, as `billing.revenue_line` names them. */
  columns: readonly string[];
}

/** Smallest first: a query is answered by the first view that has every column it needs. */
export const ROLLUP_VIEWS: readonly RollupView[] = Object.freeze([
  { name: 'total', relation: 'billing.revenue_hourly_total', columns: ['source'] },
  { name: 'location', relation: 'billing.revenue_hourly_location', columns: ['location_id', 'location_name'] },
  { name: 'item_category', relation: 'billing.revenue_hourly_item_category', columns: ['item_category'] },
  { name: 'provider', relation: 'billing.revenue_hourly_provider', columns: ['provider_id', 'provider_name'] },
  { name: 'payment_medium', relation: 'billing.revenue_hourly_payment_medium', columns: ['payment_medium'] },
]);

/** The smallest rollup holding every column, or null: the lines must be read. */
export function coveringRollup(columns: Iterable<string>): RollupView | null {
  const needed = [...new Set(columns)];
  return ROLLUP_VIEWS.find((view) => needed.every((column) => view.columns.includes(column))) ?? null;
}
