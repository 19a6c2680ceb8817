import { rollupForQuery, rollupMeasureSql } from '../rollups/query-rollup';
import { rollupRelation } from '../rollups/rollup-relation';
import { filterSql, measureSql } from './filter-sql';
import { CUBES, resolveMember, type MeasureDef } from './model';
import { scopeOf } from './parse-filters';
import type { NormalizedQuery } from './query-types';
import { lowerBoundSql, lowerBoundValue, SqlParams, upperBoundExclusiveValue, upperBoundSql } from './sql-params';

/** One column of the answer and the response keys it fills. */
export interface OutputColumn {
  alias: string;
  /** Member names keyed in each row, e.g. `revenue.createdAt.month` and `revenue.createdAt`. */
  keys: string[];
  /** Set for measures: how to read the value back. */
  measure?: MeasureDef;
}

/** A statement ready for `pg`: text with `$n` placeholders and their values. */
export interface BuiltStatement {
  sql: string;
  params: unknown[];
  columns: OutputColumn[];
  /** `lines`, or the rollup read (rollups/catalogue.ts). */
  via: string;
  /** True when a rollup is read (few rows: see read-only.ts). */
  small: boolean;
}

// Cube's wall-clock format for time values: local time in the query's zone, no offset.
const LOCAL_TIME = `'YYYY-MM-DD"T"HH24:MI:SS.MS'`;

/**
 * Turns a normalised query into one SELECT over the cube's relation: always `tenant_id = $1`,
 * identifiers only from the model, every request value a bind parameter. Time grouping is
 * `date_trunc(granularity, created_at at time zone tz)`, so buckets follow the zone's calendar.
 * With `rollups`, a query the smallest covering rollup answers reads it instead of the lines
 * (rollups/rollup-relation.ts): the same SELECT over a relation that holds the same figures.
 */
export function buildQuery(query: NormalizedQuery, tenantId: string, rollups = false): BuiltStatement {
  const cube = CUBES.revenue; // the model has one cube; every member resolves into it
  const params = new SqlParams();
  const tenant = params.add(tenantId);
  const tz = params.shared(query.timezone);
  const view = rollups ? rollupForQuery(query) : null;
  const measure = view ? rollupMeasureSql : measureSql;
  const granularities: string[] = [];
  const select: string[] = [];
  const columns: OutputColumn[] = [];
  const groupBy: string[] = [];
  const aliasOf = new Map<string, string>();
  /** `grouped`: the expression rows are grouped by, when the output formats it (formatting once per group, not per row). */
  const add = (expression: string, keys: string[], grouped: string | boolean, measure?: MeasureDef) => {
    const alias = `c${columns.length}`;
    select.push(`${expression} as "${alias}"`);
    columns.push({ alias, keys, measure });
    if (grouped) groupBy.push(typeof grouped === 'string' ? grouped : String(columns.length));
    return alias;
  };

  for (const name of query.dimensions) {
    const member = resolveMember(name);
    if (member?.kind !== 'dimension') throw new Error(`${name} is not a dimension`);
    if (member.def.type !== 'time') {
      aliasOf.set(name, add(member.def.column, [name], true));
      continue;
    }
    const local = `(${member.def.column} at time zone ${tz()})`;
    aliasOf.set(name, add(`to_char(${local}, ${LOCAL_TIME})`, [name], local));
  }
  const granular = new Set<string>();
  for (const time of query.timeDimensions) {
    if (!time.granularity) continue;
    const key = `${time.dimension}.${time.granularity}`;
    if (granular.has(key)) continue;
    granular.add(key);
    const member = resolveMember(time.dimension);
    if (member?.kind !== 'dimension') throw new Error(`${time.dimension} is not a dimension`);
    // Cube also answers the bare name with the first grouping of a time dimension the query does not select raw.
    const keys = aliasOf.has(time.dimension) ? [key] : [key, time.dimension];
    const granularity = params.add(time.granularity);
    granularities.push(granularity);
    const bucket = `date_trunc(${granularity}, ${view ? 't' : member.def.column} at time zone ${tz()})`;
    const alias = add(`to_char(${bucket}, ${LOCAL_TIME})`, keys, bucket);
    if (!aliasOf.has(time.dimension)) aliasOf.set(time.dimension, alias);
  }
  for (const name of query.measures) {
    const member = resolveMember(name);
    if (member?.kind !== 'measure') throw new Error(`${name} is not a measure`);
    aliasOf.set(name, add(measure(member.def), [name], false, member.def));
  }

  const where: string[] = [];
  const lower: string[] = [];
  const upper: string[] = [];
  for (const time of query.timeDimensions) {
    if (!time.dateRange) continue;
    const member = resolveMember(time.dimension);
    if (member?.kind !== 'dimension') continue;
    if (view) {
      lower.push(lowerBoundValue(params, time.dateRange[0], tz));
      upper.push(upperBoundExclusiveValue(params, time.dateRange[1], tz));
    } else where.push(lowerBoundSql(params, member.def.column, time.dateRange[0], tz), upperBoundSql(params, member.def.column, time.dateRange[1], tz));
  }
  const having: string[] = [];
  for (const filter of query.filters) (scopeOf(filter) === 'measure' ? having : where).push(filterSql(params, filter, tz, measure));
  const from = view
    ? rollupRelation({ params, tenant, view, lower, upper, where, granularities, tz })
    : `${cube.relation} where ${[`${cube.tenantColumn} = ${tenant}`, ...where].join(' and ')}`;

  const orderBy = query.order.map(([name, direction]) => {
    const alias = aliasOf.get(name);
    if (alias) return `"${alias}" ${direction}`;
    const member = resolveMember(name);
    if (member?.kind !== 'measure') throw new Error(`cannot order by ${name}`);
    return `${measure(member.def)} ${direction}`;
  });
  // Grouping columns last, so equal sort keys still come back in one order and offsets page reliably.
  for (const column of columns) {
    const alias = `"${column.alias}"`;
    if (!column.measure && !orderBy.some((entry) => entry.startsWith(`${alias} `))) orderBy.push(`${alias} asc`);
  }

  const sql = [
    `select ${select.join(', ')}`,
    `from ${from}`,
    groupBy.length ? `group by ${groupBy.join(', ')}` : '',
    having.length ? `having ${having.join(' and ')}` : '',
    orderBy.length ? `order by ${orderBy.join(', ')}` : '',
    `limit ${params.add(query.limit)} offset ${params.add(query.offset)}`,
  ].filter(Boolean).join(' ');
  return { sql, params: params.values, columns, via: view?.name ?? 'lines', small: view !== null };
}

/** Reads one result row into Cube's shape: keys are member names, measures JSON numbers (cents stay integers). */
export function shapeRow(row: Record<string, unknown>, columns: OutputColumn[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of columns) {
    const raw = row[column.alias];
    // pg hands bigint and numeric over as strings; sums of cents stay far below 2^53.
    const value = column.measure && raw !== null && raw !== undefined ? Number(raw) : (raw ?? null);
    for (const key of column.keys) out[key] = value;
  }
  return out;
}
