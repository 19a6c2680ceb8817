import { randomUUID } from 'node:crypto';
import { execute, parse } from 'graphql';
import { loadConfig } from '../../../gateway/config';
import { ValidationError } from '../../../schema/errors';
import { analyticsSubgraph } from '../../../subgraphs/analytics';
import { readAnalyticsSettings } from '../../../subgraphs/analytics/analytics-deps';
import { runReadOnly } from '../../../subgraphs/analytics/query/read-only';
import { startSubgraph, type RunningSubgraph } from '../../../platform/subgraph-runtime';

/** The statement timeout these tests run under (ANALYTICS_STATEMENT_TIMEOUT_MS, as the subgraph's deps carry it). */
const TIMEOUT_MS = 300;

const TARGETS = { request: { loc: ['query'], input: { measures: ['revenue.count'] } }, timezone: { loc: ['query', 'timezone'], input: 'Etc/Nowhere' } };

describe('analytics read-only statements (real PostgreSQL)', () => {
  let subgraph: RunningSubgraph;
  beforeAll(async () => {
    subgraph = await startSubgraph(analyticsSubgraph, process.env.DATABASE_URL!, { migrate: false });
  });
  afterAll(() => subgraph.close());
  const em = () => subgraph.orm.em.fork() as never;

  it('cancels a statement past ANALYTICS_STATEMENT_TIMEOUT_MS and answers a 422 "query too expensive"', async () => {
    const started = Date.now();
    const error = await runReadOnly(em(), TARGETS, (run) => run({ sql: 'select pg_sleep(5)', params: [] }), TIMEOUT_MS).catch((e) => e);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(error).toBeInstanceOf(ValidationError);
    const reason = 'query too expensive: it ran longer than 300 ms; narrow the date range or add filters';
    expect(error.issues).toEqual([{ type: 'value_error', loc: ['query'], msg: `Value error, ${reason}`, input: TARGETS.request.input, ctx: { error: reason } }]);
    // The connection went back to the pool clean: the next statement runs, without the old limit leaking beyond its transaction.
    const [row] = await runReadOnly(em(), TARGETS, (run) => run({ sql: `select current_setting('statement_timeout') as limit, current_setting('transaction_read_only') as ro`, params: [] }), TIMEOUT_MS);
    expect(row).toEqual({ limit: '300ms', ro: 'on' });
  });

  it('runs read-only: a write is refused by the database, not performed', async () => {
    const error = await runReadOnly(em(), TARGETS, (run) => run({ sql: 'create table analytics.should_not_exist (id int)', params: [] }), TIMEOUT_MS).catch((e) => e);
    expect(error.code).toBe('25006');
    const [row] = await runReadOnly(em(), TARGETS, (run) => run({ sql: `select to_regclass('analytics.should_not_exist') as t`, params: [] }), TIMEOUT_MS);
    expect(row.t).toBeNull();
  });

  it('a zone PostgreSQL does not know is a 422 at the timezone, not a 500', async () => {
    const error = await runReadOnly(em(), TARGETS, (run) => run({ sql: `select now() at time zone $1 as t`, params: ['Etc/Nowhere'] }), TIMEOUT_MS).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues[0]).toMatchObject({ type: 'value_error', loc: ['query', 'timezone'], input: 'Etc/Nowhere' });
  });

  it('executeAnalyticsQuery needs a tenant and reads only its own lines', async () => {
    const run = (tenantId: string | null) =>
      execute({ schema: subgraph.schema, document: parse('{ executeAnalyticsQuery(query: {measures: ["revenue.count"]}) { data } }'), contextValue: subgraph.context({ tenantId, requestId: 'test' }) });
    expect((await run(null)).errors?.[0].message).toBe('A tenant is required');
    expect((await run(randomUUID())).data).toEqual({ executeAnalyticsQuery: { data: [{ 'revenue.count': 0 }] } });
  });

  it('a wrong ANALYTICS_STATEMENT_TIMEOUT_MS stops the start with a readable message; a right one reaches the resolvers', () => {
    const problem = 'ANALYTICS_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds from 100 to 600000 (got "soon")';
    expect(readAnalyticsSettings({ ANALYTICS_STATEMENT_TIMEOUT_MS: 'soon' }).problems).toEqual([problem]);
    expect(() => loadConfig({ ANALYTICS_STATEMENT_TIMEOUT_MS: 'soon' })).toThrow(problem);
    expect(loadConfig({ ANALYTICS_STATEMENT_TIMEOUT_MS: '300' }).subgraphSettings.analytics).toMatchObject({ statementTimeoutMs: 300 });
    expect(analyticsSubgraph.configure!({ statementTimeoutMs: 300, tenantConcurrency: 2, concurrency: 8, queueWaitMs: 3000 }, undefined as never)).toMatchObject({ statementTimeoutMs: 300 });
  });
});
