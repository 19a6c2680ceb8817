import type { SqlParams, ZoneRef } from '../query/sql-params';
import type { RollupView } from './catalogue';

/** What a rollup-backed statement reads: one view, the range of instants and the conditions on its dimensions. */
export interface RollupRead {
  params: SqlParams;
  /** The tenant's placeholder. */
  tenant: string;
  view: RollupView;
  /** Lower bounds (timestamptz SQL, inclusive) and upper bounds (exclusive), all of which hold; none: unbounded. */
  lower: string[];
  upper: string[];
  /** Conditions on the view's dimension columns; they read the same on lines and on the view. */
  where: string[];
  /** `date_trunc` fields (SQL) the statement groups time by in `tz`: hours that straddle one of their buckets are read as lines. */
  granularities: string[];
  tz: ZoneRef;
}

/** Aggregates over the relation `rollupRelation` builds, mirroring those over lines (`count(*)`, `sum`, `avg`, `min`/`max(created_at)`). */
export const ROLLUP_AGGREGATES = {
  count: 'coalesce(sum(line_count), 0)',
  /** Lines of each source: a line is a charge item or a sold package. */
  chargeItems: 'coalesce(sum(line_count - package_count), 0)',
  soldPackages: 'coalesce(sum(package_count), 0)',
  sum: (column: string) => `coalesce(sum(${column}), 0)`,
  // The same numeric division avg(integer) does, so the rounding (half away from zero) is identical.
  average: (column: string) => `round(sum(${column})::numeric / nullif(sum(line_count), 0))`,
  first: 'min(first_at)',
  last: 'max(last_at)',
};

const LINES = 'billing.revenue_line';
const HOUR = `interval '1 hour'`;
// Hours are binned from the epoch in UTC: timestamptz arithmetic, no time zone involved (billing's triggers bin the same way).
const ORIGIN = `'2000-01-01 00:00:00+00'::timestamptz`;

/**
 * True for an hour that lies within one bucket of every granularity in the zone: the zone's offset
 * does not change inside it and its first and last microsecond share the bucket. A zone offset by
 * whole hours has no other hours; India's days start at :30 and Nepal's at :45 past a UTC hour, so
 * one hour a day is read as lines when grouping by day there.
 */
function pureHour(read: RollupRead): string {
  const tz = read.tz();
  const start = `(hour at time zone ${tz})`;
  const end = `((hour + ${HOUR} - interval '1 microsecond') at time zone ${tz})`;
  return [`((hour + ${HOUR}) at time zone ${tz}) - ${start} = ${HOUR}`, ...read.granularities.map((g) => `date_trunc(${g}, ${start}) = date_trunc(${g}, ${end})`)].join(' and ');
}

/**
 * The relation a rollup-backed statement aggregates, `u`: every whole hour of the range from the
 * view, and the lines of the partial hours at either end (and of the hours that straddle a bucket)
 * from `billing.revenue_line`, one row each. Rows carry the view's columns, `t` (the hour, or the
 * line's time: what time grouping reads; an hour used whole lies in one bucket), `line_count` (1
 * for a line), `package_count`, the amounts, `first_at` and `last_at`. The two sources partition
 * the range, so every line is counted exactly once.
 */
export function rollupRelation(read: RollupRead): string {
  const dims = read.view.columns.map((c) => `${c}, `).join('');
  const bound = (list: string[], pick: string, infinity: string) => (list.length === 0 ? `'${infinity}'::timestamptz` : list.length === 1 ? list[0] : `${pick}(${list.join(', ')})`);
  const s = bound(read.lower, 'greatest', '-infinity');
  const e = bound(read.upper, 'least', 'infinity');
  // First whole hour at or after s; the hours before e's hour end by e.
  const bounds = `select s, e, case when date_bin(${HOUR}, s, ${ORIGIN}) = s then s else date_bin(${HOUR}, s, ${ORIGIN}) + ${HOUR} end as cs,
      date_bin(${HOUR}, e, ${ORIGIN}) as fe from (select ${s} as s, ${e} as e) x`;
  const b = (column: string) => `(select ${column} from bounds)`;
  const where = read.where.map((w) => ` and ${w}`).join('');
  const pure = read.granularities.length ? pureHour(read) : '';
  const hours = `from ${read.view.relation} where tenant_id = ${read.tenant} and hour >= ${b('cs')} and hour < ${b('fe')}${where}`;
  const totals = 'line_count, package_count, gross_cents, discount_cents, net_cents, first_at, last_at';
  const line = `select ${dims}created_at as t, 1::bigint as line_count, (source = 'sold_package')::int::bigint as package_count, gross_cents, discount_cents, net_cents,
      created_at as first_at, created_at as last_at from ${LINES}`;
  // With time grouping, each hour's purity is computed once (materialized): the whole hours use it, the straddling ones its negation.
  const ctes = [`bounds as (${bounds})`];
  if (pure) ctes.push(`whole as materialized (select ${dims}hour, ${totals}, ${pure} as pure ${hours})`);
  const arms = [pure ? `select ${dims}hour as t, ${totals} from whole where pure` : `select ${dims}hour as t, ${totals} ${hours}`];
  if (read.lower.length) arms.push(`${line} where tenant_id = ${read.tenant} and created_at >= ${b('s')} and created_at < least(${b('cs')}, ${b('e')})${where}`);
  if (read.upper.length) arms.push(`${line} where tenant_id = ${read.tenant} and created_at >= greatest(${b('fe')}, ${b('cs')}) and created_at < ${b('e')}${where}`);
  if (pure) {
    arms.push(`${line} join (select distinct hour from whole where not pure) straddling on created_at >= straddling.hour and created_at < straddling.hour + ${HOUR}
      where tenant_id = ${read.tenant}${where}`);
  }
  return `(with ${ctes.join(', ')} ${arms.join(' union all ')}) u`;
}
