import type { MeasureDef } from '../query/model';
import { resolveMember } from '../query/model';
import { isGroup, type FilterNode, type NormalizedQuery } from '../query/query-types';
import { coveringRollup, type RollupView } from './catalogue';
import { ROLLUP_AGGREGATES } from './rollup-relation';

/** A measure's aggregate over a rollup relation, the twin of filter-sql.ts's `measureSql` over lines. */
export function rollupMeasureSql(def: MeasureDef): string {
  if (def.kind === 'count') return ROLLUP_AGGREGATES.count;
  if (def.kind === 'sum') return ROLLUP_AGGREGATES.sum(def.column!);
  return ROLLUP_AGGREGATES.average(def.column!);
}

/** The dimension columns a filter tree reads; null when it reads the time column (its bounds need not fall on hours). */
function filterColumns(node: FilterNode, into: string[]): boolean {
  if (isGroup(node)) return ('and' in node ? node.and : node.or).every((child) => filterColumns(child, into));
  const member = resolveMember(node.member);
  if (member?.kind === 'measure') return true;
  if (member?.kind !== 'dimension' || member.def.type === 'time') return false;
  into.push(member.def.column);
  return true;
}

/**
 * The smallest rollup that answers a query, or null. Selected and filtered dimensions must be
 * rollup columns; time is read only through `timeDimensions` (granularities and date ranges),
 * never as a raw dimension or a filter.
 */
export function rollupForQuery(query: NormalizedQuery): RollupView | null {
  const columns: string[] = [];
  for (const name of query.dimensions) {
    const member = resolveMember(name);
    if (member?.kind !== 'dimension' || member.def.type === 'time') return null;
    columns.push(member.def.column);
  }
  for (const filter of query.filters) if (!filterColumns(filter, columns)) return null;
  return coveringRollup(columns);
}
