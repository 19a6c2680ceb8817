import type { Granularity } from './model';

/** Sort direction of one `order` entry. */
export type Direction = 'asc' | 'desc';

/** Filter operators, in the order error messages list them (Cube's names; `in`/`notIn` are aliases of `equals`/`notEquals`). */
export const OPERATORS = [
  'equals', 'notEquals', 'in', 'notIn', 'contains', 'notContains', 'startsWith', 'endsWith', 'gt', 'gte', 'lt', 'lte',
  'set', 'notSet', 'inDateRange', 'notInDateRange', 'beforeDate', 'beforeOrOnDate', 'afterDate', 'afterOrOnDate',
] as const;
/** One of OPERATORS. */
export type Operator = (typeof OPERATORS)[number];

/** Operators per member type: strings compare as text, measures as numbers, the time dimension by dates. */
export const OPERATORS_BY_TYPE: Record<'string' | 'number' | 'time', readonly Operator[]> = {
  string: ['equals', 'notEquals', 'in', 'notIn', 'contains', 'notContains', 'startsWith', 'endsWith', 'set', 'notSet'],
  number: ['equals', 'notEquals', 'in', 'notIn', 'gt', 'gte', 'lt', 'lte', 'set', 'notSet'],
  time: ['inDateRange', 'notInDateRange', 'beforeDate', 'beforeOrOnDate', 'afterDate', 'afterOrOnDate', 'set', 'notSet'],
};

/** How many values an operator takes: exactly n, or [min, max]. */
export function operatorArity(operator: Operator, maxValues: number): [number, number] {
  if (operator === 'set' || operator === 'notSet') return [0, 0];
  if (operator === 'inDateRange' || operator === 'notInDateRange') return [2, 2];
  if (['gt', 'gte', 'lt', 'lte', 'beforeDate', 'beforeOrOnDate', 'afterDate', 'afterOrOnDate'].includes(operator)) return [1, 1];
  return [1, maxValues];
}

/** A filter on one member; `values` are strings as in Cube (time values normalised to bound texts). */
export interface MemberFilter {
  member: string;
  operator: Operator;
  values?: string[];
}

/** A filter, or a logical group of filters. */
export type FilterNode = MemberFilter | { and: FilterNode[] } | { or: FilterNode[] };

/** One entry of `timeDimensions`; `dateRange` resolved to inclusive wall-clock bounds (or instants). */
export interface TimeDimensionQuery {
  dimension: string;
  granularity?: Granularity;
  dateRange?: [string, string];
}

/** A query after validation: every member known, defaults applied, relative ranges resolved. */
export interface NormalizedQuery {
  measures: string[];
  dimensions: string[];
  timeDimensions: TimeDimensionQuery[];
  filters: FilterNode[];
  order: [string, Direction][];
  limit: number;
  offset: number;
  timezone: string;
}

/** True for a logical group node. */
export const isGroup = (node: FilterNode): node is { and: FilterNode[] } | { or: FilterNode[] } => 'and' in node || 'or' in node;
