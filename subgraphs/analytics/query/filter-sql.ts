import { escapeLike } from '../../common/field-rules';
import { storedIds } from '../../../platform/ids';
import { resolveMember, type MeasureDef } from './model';
import { isGroup, type FilterNode, type MemberFilter } from './query-types';
import { pointSql, upperBoundSql, type SqlParams, type ZoneRef } from './sql-params';

/** A measure's aggregate expression. Sums of nothing are 0, an average of nothing is null. */
export function measureSql(def: MeasureDef): string {
  if (def.kind === 'count') return 'count(*)';
  if (def.kind === 'sum') return `coalesce(sum(${def.column}), 0)`;
  return `round(avg(${def.column}))`;
}

/** Text comparisons; `notEquals`/`notContains` keep rows where the member is null, as Cube does. */
function stringSql(params: SqlParams, column: string, uuid: boolean, filter: MemberFilter): string {
  const values = filter.values ?? [];
  const like = (pattern: (v: string) => string) => params.add(values.map((v) => pattern(escapeLike(v))));
  const text = uuid ? `${column}::text` : column;
  switch (filter.operator) {
    case 'equals':
    case 'in':
    case 'notEquals':
    case 'notIn': {
      const negated = filter.operator === 'notEquals' || filter.operator === 'notIn';
      // A value that is not a UUID cannot equal a uuid column; sending it would be a cast error, not "no match".
      const list = uuid ? storedIds(values) : values;
      if (uuid && list.length === 0) return negated ? 'true' : 'false';
      const array = params.add(list) + (uuid ? '::uuid[]' : '::text[]');
      return negated ? `(${column} is null or ${column} <> all(${array}))` : `${column} = any(${array})`;
    }
    case 'contains':
      return `${text} ilike any(${like((v) => `%${v}%`)}::text[])`;
    case 'notContains':
      return `(${column} is null or ${text} not ilike all(${like((v) => `%${v}%`)}::text[]))`;
    case 'startsWith':
      return `${text} ilike any(${like((v) => `${v}%`)}::text[])`;
    case 'endsWith':
      return `${text} ilike any(${like((v) => `%${v}`)}::text[])`;
    default:
      return setSql(column, filter);
  }
}

function setSql(expression: string, filter: MemberFilter): string {
  if (filter.operator === 'set') return `${expression} is not null`;
  if (filter.operator === 'notSet') return `${expression} is null`;
  throw new Error(`operator ${filter.operator} reached SQL for the wrong member type`);
}

/** Numeric comparisons of an aggregate (HAVING). */
function numberSql(params: SqlParams, expression: string, filter: MemberFilter): string {
  const values = filter.values ?? [];
  const one = () => `${params.add(values[0])}::numeric`;
  switch (filter.operator) {
    case 'equals':
    case 'in':
      return `${expression} = any(${params.add(values)}::numeric[])`;
    case 'notEquals':
    case 'notIn':
      return `${expression} <> all(${params.add(values)}::numeric[])`;
    case 'gt':
      return `${expression} > ${one()}`;
    case 'gte':
      return `${expression} >= ${one()}`;
    case 'lt':
      return `${expression} < ${one()}`;
    case 'lte':
      return `${expression} <= ${one()}`;
    default:
      return setSql(expression, filter);
  }
}

/** Date comparisons of the time column; values are already bound texts (parse-filters.ts). */
function timeSql(params: SqlParams, column: string, filter: MemberFilter, tz: ZoneRef): string {
  const [first, second] = filter.values ?? [];
  switch (filter.operator) {
    case 'inDateRange':
      return `(${column} >= ${pointSql(params, first, tz)} and ${upperBoundSql(params, column, second, tz)})`;
    case 'notInDateRange':
      return `(${column} < ${pointSql(params, first, tz)} or not (${upperBoundSql(params, column, second, tz)}))`;
    case 'beforeDate':
      return `${column} < ${pointSql(params, first, tz)}`;
    case 'beforeOrOnDate':
      return `${column} <= ${pointSql(params, first, tz)}`;
    case 'afterDate':
      return `${column} > ${pointSql(params, first, tz)}`;
    case 'afterOrOnDate':
      return `${column} >= ${pointSql(params, first, tz)}`;
    default:
      return setSql(column, filter);
  }
}

/**
 * One filter node as a SQL condition; `tz` gives the placeholder of the query's time zone and
 * `measure` the aggregate of a measure (over lines by default, or over a rollup).
 */
export function filterSql(params: SqlParams, node: FilterNode, tz: ZoneRef, measure: (def: MeasureDef) => string = measureSql): string {
  if (isGroup(node)) {
    const [joiner, children] = 'and' in node ? [' and ', node.and] : [' or ', node.or];
    return `(${children.map((child) => filterSql(params, child, tz, measure)).join(joiner)})`;
  }
  const member = resolveMember(node.member);
  if (!member) throw new Error(`unresolved member ${node.member} reached SQL`);
  if (member.kind === 'measure') return numberSql(params, measure(member.def), node);
  if (member.def.type === 'time') return timeSql(params, member.def.column, node, tz);
  return stringSql(params, member.def.column, Boolean(member.def.uuid), node);
}
