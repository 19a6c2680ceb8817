import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import { ValidationError } from '../../../schema/errors';
import type { IssueLoc } from '../../common/field-rules';
import { annotate, type QueryAnnotation } from '../query/annotation';
import { buildQuery, shapeRow } from '../query/build-query';
import { parseQuery } from '../query/parse-query';
import { patientsNamed } from '../query/patients-named';
import type { NormalizedQuery } from '../query/query-types';
import { runReadOnly, type RunStatement } from '../query/read-only';
import { isJsonObject, Issues } from './input-rules';
import { DEFAULT_STATEMENT_TIMEOUT_MS } from '../analytics-deps';
import type { FairShare } from '../../../platform/fair-share';
import { staleRead } from '../../../platform/replica/stale-read';

/** The answer of `execute-query`, in Cube's `/load` shape. */
export interface AnalyticsQueryResult {
  query: NormalizedQuery;
  data: Record<string, unknown>[];
  annotation: QueryAnnotation;
}

/**
 * The query execution request is the query itself, or Cube's `/load` envelope `{query: {...}}`.
 * A Cube query has no `query` key, so the two cannot be confused; problems are located inside
 * whichever was sent (`["query", "measures", 0]` or `["query", "query", "measures", 0]`).
 */
function unwrap(input: unknown): { raw: unknown; loc: IssueLoc } {
  const issues = new Issues();
  if (!isJsonObject(input)) {
    // The request body is a model in FastAPI's terms, refused whole before any field is looked at.
    issues.add({ type: 'model_attributes_type', loc: ['query'], msg: 'Input should be a valid dictionary or object to extract fields from', input });
    issues.throwIfAny();
  }
  if (!Object.hasOwn(input as object, 'query')) return { raw: input, loc: ['query'] };
  const envelope = input as Record<string, unknown>;
  for (const [key, value] of Object.entries(envelope)) {
    if (key !== 'query') issues.add({ type: 'extra_forbidden', loc: ['query', key], msg: 'Extra inputs are not permitted', input: value });
  }
  issues.throwIfAny();
  return { raw: envelope.query, loc: ['query', 'query'] };
}

/** Runs analysts' queries for one tenant (contract part 4.2, `execute-query`). */
export class AnalyticsQueryService {
  /**
   * `rollups: false` reads lines only: the reference the rollup path is tested against.
   * `statementTimeoutMs`: ANALYTICS_STATEMENT_TIMEOUT_MS; `share`: the tenant-fair queue the
   * statement waits its turn in (both ctx.deps); without one it runs at once (tests, benchmarks).
   * `signal`: the request's (ctx.signal); a query still waiting when it aborts never runs.
   * `audit`: the request's side of the audit trail (ctx.audit): answers grouped by patient are PHI reads.
   */
  constructor(
    private readonly em: EntityManager,
    private readonly scope: TenantScope,
    private readonly audit: RequestAudit,
    private readonly options: { rollups?: boolean; statementTimeoutMs?: number; share?: FairShare; signal?: AbortSignal } = {},
  ) {}

  /**
   * Validates, normalises and runs a query: one read-only statement under the statement timeout,
   * scoped to the tenant, over a rollup when one answers. A valid query waits for a slot of its
   * tenant's share before it takes a connection; an invalid one is refused without waiting.
   */
  async execute(input: unknown): Promise<AnalyticsQueryResult> {
    const { raw, loc } = unwrap(input);
    const parsed = parseQuery(raw, loc, { now: new Date(), requireMembers: true });
    if (!parsed.ok) throw new ValidationError(parsed.issues);
    const statement = buildQuery(parsed.query, this.scope.tenantId, this.options.rollups ?? true);
    const targets = { request: { loc, input: raw }, timezone: { loc: [...loc, 'timezone'], input: parsed.query.timezone } };
    const work = async (run: RunStatement) => {
      const data = (await run(statement)).map((row) => shapeRow(row, statement.columns));
      return { data, patients: await patientsNamed(run, parsed.query, this.scope.tenantId, data) };
    };
    // An aggregate may be seconds stale: the replica's, while within its lag bound (docs/decisions.md, "Analytics reads from a replica").
    const read = () => staleRead(this.em, (connection) => runReadOnly(this.em, targets, work, this.options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS, connection));
    const { data, patients } = await (this.options.share ? this.options.share.run(this.scope.tenantId, read, this.options.signal) : read());
    // Rows grouped by patient name patients: a read of their PHI (docs/audit.md); other aggregates name nobody.
    this.audit.read('patient', patients);
    return { query: parsed.query, data, annotation: annotate(parsed.query) };
  }
}
