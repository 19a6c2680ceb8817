import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import { ValidationError } from '../../../schema/errors';
import { toConnection, type Connection } from '../../common/connection';
import { keyValues, readSlice } from '../../common/keyset';
import { listWindow, type ListWindow } from '../../common/list-window';
import { QueryIssues } from '../query/query-issues';
import { runReadOnly, type RefusalTargets, type RunStatement } from '../query/read-only';
import type { RevenueBreakdownArgs, RevenueGroupsArgs, RevenueGroupSummariesArgs, RevenueSummaryArgs } from '../types/revenue-breakdown.args';
import type { RevenueBreakdownItemType, RevenueGroupItemType, RevenueGroupSummaryType, RevenueSummaryType } from '../types/revenue-breakdown.type';
import type { PaymentMedium, RevenueItemType, RevenueLineSource } from '../types/revenue-enums';
import { parseBreakdownFilter, parseRevenueFilter, type RevenueFilter } from './revenue-filter';
import { countStatement, groupsStatement, groupSummariesStatement, lineKeys, linesStatement, summaryStatement } from './revenue-statements';
import { DEFAULT_STATEMENT_TIMEOUT_MS } from '../analytics-deps';
import type { FairShare } from '../../../platform/fair-share';
import { staleRead } from '../../../platform/replica/stale-read';

type Row = Record<string, unknown>;

// pg answers bigint and numeric as strings; every figure here stays far below 2^53.
const num = (value: unknown): number => Number(value ?? 0);
const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** The ORM's pool hands timestamptz over as PostgreSQL's text (`2026-11-22 01:04:49.105+00`), plain pg as a Date. */
function toDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  return new Date(String(value).replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
}

const amounts = (row: Row) => ({
  count: num(row.count),
  grossCents: num(row.gross),
  discountCents: num(row.discount),
  netCents: num(row.net),
  averageNetCents: numOrNull(row.average),
});

/** Keys of id groups come back as text; the label falls back to the key for groups that have no name. */
const group = (row: Row) => ({ groupKey: (row.group_key as string | null) ?? null, groupLabel: (row.group_label as string | null) ?? (row.group_key as string | null) ?? null });

function line(row: Row): RevenueBreakdownItemType {
  return {
    id: row.id as string,
    source: row.source as RevenueLineSource,
    locationId: row.location_id as string,
    locationName: row.location_name as string,
    providerId: row.provider_id as string | null,
    providerName: row.provider_name as string | null,
    patientId: row.patient_id as string | null,
    patientName: row.patient_name as string | null,
    itemCategory: row.item_category as string,
    itemType: row.item_type as RevenueItemType,
    itemName: row.item_name as string,
    paymentMedium: row.payment_medium as PaymentMedium,
    grossCents: row.gross_cents as number,
    discountCents: row.discount_cents as number,
    netCents: row.net_cents as number,
    comment: row.comment as string | null,
    createdAt: toDate(row.created_at)!,
    localDate: row.local_date as string,
  };
}

/**
 * The product sales revenue breakdown (contract part 4.3) of one tenant, over `billing.revenue_line`.
 * All four endpoints share one filter set, so their figures agree: group counts and sums add up
 * to the summary, and the detail pages hold exactly the summary's lines.
 */
export class RevenueBreakdownService {
  /**
   * `rollups: false` reads lines only (the reference the rollup path is tested against);
   * `statementTimeoutMs`: ANALYTICS_STATEMENT_TIMEOUT_MS; `share`: the tenant-fair queue each
   * read-only transaction waits its turn in (both ctx.deps); without one it runs at once.
   * `signal`: the request's (ctx.signal); a transaction still waiting when it aborts never runs.
   * `audit`: the request's side of the audit trail (ctx.audit): pages of lines naming patients are PHI reads.
   */
  constructor(
    private readonly em: EntityManager,
    private readonly tenantId: string,
    private readonly audit: RequestAudit,
    private readonly options: { rollups: boolean; statementTimeoutMs?: number; share?: FairShare; signal?: AbortSignal } = { rollups: true },
  ) {}

  /** Distinct groups with their line counts (no group is a patient: not a read of PHI). */
  async groups(args: RevenueGroupsArgs): Promise<RevenueGroupItemType[]> {
    const filter = this.validated((issues) => parseRevenueFilter(args, issues));
    const rows = await this.run(args, (run) => run(groupsStatement(this.tenantId, filter, args.groupBy, this.options.rollups)));
    return rows.map((row) => ({ ...group(row), totalCount: num(row.count) }));
  }

  /** Count and sums per group. */
  async groupSummaries(args: RevenueGroupSummariesArgs): Promise<RevenueGroupSummaryType[]> {
    const filter = this.validated((issues) => parseRevenueFilter(args, issues));
    const rows = await this.run(args, (run) => run(groupSummariesStatement(this.tenantId, filter, args.groupBy, args.sortBy, args.sortDirection, this.options.rollups)));
    return rows.map((row) => ({ ...group(row), ...amounts(row) }));
  }

  /** Count and sums of every filtered line. */
  async summary(args: RevenueSummaryArgs): Promise<RevenueSummaryType> {
    const filter = this.validated((issues) => parseRevenueFilter(args, issues));
    const [row] = await this.run(args, (run) => run(summaryStatement(this.tenantId, filter, this.options.rollups)));
    return { ...amounts(row), chargeItemCount: num(row.charge_items), soldPackageCount: num(row.sold_packages), firstLineAt: toDate(row.first_at), lastLineAt: toDate(row.last_at) };
  }

  /** One window of lines and the total, in one read-only transaction so both see the same data; an audited read of the lines naming patients. */
  async lines(args: RevenueBreakdownArgs): Promise<Connection<RevenueBreakdownItemType>> {
    const keys = lineKeys(args.sortBy, args.sortDirection);
    let window: ListWindow | undefined;
    const filter = this.validated((issues) => {
      const parsed = parseBreakdownFilter(args, issues);
      try {
        window = listWindow(args, keys);
      } catch (error) {
        (error as ValidationError).issues.forEach((issue) => issues.add(issue));
      }
      return parsed;
    });
    const slice = await this.run(args, (run) =>
      readSlice(
        window!,
        keys,
        (query) => run(linesStatement(this.tenantId, filter, keys, query)),
        async () => num((await run(countStatement(this.tenantId, filter, this.options.rollups)))[0].count),
      ),
    );
    const lines = toConnection(slice, keyValues(keys), line);
    // Lines naming a patient are PHI: recorded by line id, each line keeping its patient's id (docs/audit.md).
    this.audit.read('revenue_line', lines.nodes.filter((item) => item.patientId !== null || item.patientName !== null).map((item) => item.id));
    return lines;
  }

  /** Every problem of the request at once, as FastAPI lists them, or the filter. */
  private validated(parse: (issues: QueryIssues) => RevenueFilter): RevenueFilter {
    const issues = new QueryIssues();
    const filter = parse(issues);
    issues.throwIfAny();
    return filter;
  }

  private run<T>(args: { timezone: string }, work: (run: RunStatement) => Promise<T>): Promise<T> {
    // A request cancelled by the statement timeout is pointed at as a whole (loc ["query"] over REST).
    const targets: RefusalTargets = { request: { loc: ['query'], input: null }, timezone: { loc: ['timezone'], input: args.timezone } };
    // Aggregates and pages of lines may be seconds stale: the replica's, while within its lag bound (docs/decisions.md, "Analytics reads from a replica").
    const read = () => staleRead(this.em, (connection) => runReadOnly(this.em, targets, work, this.options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS, connection));
    // One unit of the tenant's share per transaction: the slot is taken before the connection.
    return this.options.share ? this.options.share.run(this.tenantId, read, this.options.signal) : read();
  }
}
