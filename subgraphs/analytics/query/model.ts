/**
 * The declared model the query engine resolves `cube.member` names against. Every identifier
 * that reaches SQL comes from here, never from a query: a member name is only ever a lookup key.
 * The `revenue` cube reads `billing.revenue_line`, the reporting view billing publishes
 * (docs/decisions.md, Data ownership); money is integer cents.
 */

/** How a measure aggregates; decides its SQL and how its value is read back. */
export type MeasureKind = 'count' | 'sum' | 'average';

/** A measure: an aggregate over the cube's rows. */
export interface MeasureDef {
  kind: MeasureKind;
  /** The column aggregated (not for `count`). */
  column?: string;
  title: string;
  /** True for amounts in integer cents. */
  cents: boolean;
  description: string;
}

/** A dimension: a column rows are grouped and filtered by. */
export interface DimensionDef {
  type: 'string' | 'time';
  column: string;
  title: string;
  /** The column is a uuid: values that are not UUIDs cannot match it. */
  uuid?: boolean;
  description: string;
}

/** A cube: one relation of the database, scoped by its tenant column. */
export interface CubeDef {
  title: string;
  /** Schema-qualified relation. */
  relation: string;
  tenantColumn: string;
  measures: Readonly<Record<string, MeasureDef>>;
  dimensions: Readonly<Record<string, DimensionDef>>;
}

const money = (column: string, title: string, description: string): MeasureDef => ({ kind: 'sum', column, title, cents: true, description });
const text = (column: string, title: string, description: string, uuid = false): DimensionDef => ({ type: 'string', column, title, uuid, description });

/** The cubes analysts can query, by name. */
export const CUBES: Readonly<Record<string, CubeDef>> = Object.freeze({
  revenue: {
    title: 'Revenue',
    relation: 'billing.revenue_line',
    tenantColumn: 'tenant_id',
    measures: Object.freeze<Record<string, MeasureDef>>({
      count: { kind: 'count', title: 'Count', cents: false, description: 'Number of revenue lines' },
      netAmount: money('net_cents', 'Net Amount', 'Sum of net amounts (gross minus discount), integer cents'),
      grossAmount: money('gross_cents', 'Gross Amount', 'Sum of gross amounts, integer cents'),
      discountAmount: money('discount_cents', 'Discount Amount', 'Sum of discounts, integer cents'),
      averageNet: { kind: 'average', column: 'net_cents', title: 'Average Net', cents: true, description: 'Average net amount per line, rounded to whole cents (half away from zero)' },
    }),
    dimensions: Object.freeze<Record<string, DimensionDef>>({
      location: text('location_name', 'Location', 'Location name as recorded on the line'),
      locationId: text('location_id', 'Location Id', 'Location id', true),
      provider: text('provider_name', 'Provider', 'Provider name as recorded on the line; null when none'),
      providerId: text('provider_id', 'Provider Id', 'Provider id; null when none', true),
      patient: text('patient_name', 'Patient', 'Patient name as recorded on the line; null when none'),
      patientId: text('patient_id', 'Patient Id', 'Patient id; null when none', true),
      itemCategory: text('item_category', 'Item Category', 'Item category, e.g. Physical therapy'),
      itemType: text('item_type', 'Item Type', 'product, service or package'),
      itemName: text('item_name', 'Item Name', 'Item or package name'),
      paymentMedium: text('payment_medium', 'Payment Medium', 'card, cash, ach, gift_card, wallet_pay, check, insurance or other'),
      source: text('source', 'Source', 'charge_item or sold_package'),
      createdAt: { type: 'time', column: 'created_at', title: 'Created at', description: 'When the sale was recorded' },
    }),
  },
});

/** A member name resolved against the model. */
export type ResolvedMember =
  | { kind: 'measure'; name: string; cube: CubeDef; def: MeasureDef }
  | { kind: 'dimension'; name: string; cube: CubeDef; def: DimensionDef };

/** Looks a `cube.member` name up; anything else, however it is spelled, is unknown (null). */
export function resolveMember(name: string): ResolvedMember | null {
  const dot = name.indexOf('.');
  if (dot < 0) return null;
  const cubeName = name.slice(0, dot);
  const memberName = name.slice(dot + 1);
  const cube = Object.hasOwn(CUBES, cubeName) ? CUBES[cubeName] : undefined;
  if (!cube) return null;
  if (Object.hasOwn(cube.measures, memberName)) return { kind: 'measure', name, cube, def: cube.measures[memberName] };
  if (Object.hasOwn(cube.dimensions, memberName)) return { kind: 'dimension', name, cube, def: cube.dimensions[memberName] };
  return null;
}

/** Every measure name of the model, for error messages. */
export const MEASURE_NAMES = Object.entries(CUBES).flatMap(([cube, def]) => Object.keys(def.measures).map((m) => `${cube}.${m}`));
/** Every dimension name of the model, for error messages. */
export const DIMENSION_NAMES = Object.entries(CUBES).flatMap(([cube, def]) => Object.keys(def.dimensions).map((d) => `${cube}.${d}`));
/** Every time dimension name of the model. */
export const TIME_DIMENSION_NAMES = DIMENSION_NAMES.filter((name) => {
  const member = resolveMember(name);
  return member?.kind === 'dimension' && member.def.type === 'time';
});

/** Time granularities a time dimension can be grouped by (`date_trunc` fields). */
export const GRANULARITIES = ['day', 'week', 'month', 'quarter', 'year'] as const;
/** One of GRANULARITIES. */
export type Granularity = (typeof GRANULARITIES)[number];
