import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

/** What the client host's load generator is told: where, as whom, how hard and how long. */
export interface LoadConfig {
  url: string;
  tenant: string;
  apiKey: string;
  /** A patient and one of its cards: each payment charges a member created for it. */
  patientId: string;
  paymentMethodId: string;
  /** Loops sending one request after another. */
  concurrency: number;
  seconds: number;
  /** Pause between a loop's requests, so traffic is steady rather than flat out. */
  pauseMs: number;
  /** Names this run's dashboards (`<label> <n>`), so a dashboard written twice shows as a repeated name. */
  label: string;
}

/** One kind of request's tally. */
export interface KindTally {
  sent: number;
  succeeded: number;
  /** Final failures by cause: an HTTP status or a network error's code. */
  failed: Record<string, number>;
  /** Retries sent (payments only: the same Idempotency-Key again). */
  retried: number;
  latenciesMs: number[];
}

/** What the load generator saw; acknowledged writes are checked against the database afterwards. */
export interface LoadReport {
  read: KindTally;
  dashboard: KindTally;
  payment: KindTally;
  /** Dashboards answered 201: their ids. */
  dashboards: string[];
  /** Payments answered 200 SUCCEEDED: the member charged, the key, the payment id. */
  payments: { memberId: string; key: string; paymentId: string }[];
  /** Members created for payments whose charge never got an answer (may or may not be charged). */
  unanswered: string[];
}

const tally = (): KindTally => ({ sent: 0, succeeded: 0, failed: {}, retried: 0, latenciesMs: [] });
const fail = (kind: KindTally, cause: string) => (kind.failed[cause] = (kind.failed[cause] ?? 0) + 1);

/** One request with a 10 s limit; a network failure answers status 0 and the error's code. */
async function call(config: LoadConfig, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const started = performance.now();
  try {
    const res = await fetch(`${config.url}${path}`, {
      method,
      headers: { TENANT: config.tenant, 'API-KEY': config.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    return { status: res.status, text, retryAfter: Number(res.headers.get('retry-after') ?? 0), ms: performance.now() - started, cause: String(res.status) };
  } catch (err) {
    const cause = ((err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name) || 'error';
    return { status: 0, text: '', retryAfter: 0, ms: performance.now() - started, cause };
  }
}

/** A member owing 10.00, made through the graph for one payment. */
async function newMember(config: LoadConfig): Promise<string | null> {
  const query = 'mutation($i: CreateMemberInput!) { createMember(input: $i) { id } }';
  const input = { patientId: config.patientId, planName: 'Load plan', priceCents: 1000, interval: 'MONTH', status: 'PAST_DUE', balanceDueCents: 1000 };
  for (let attempt = 0; attempt < 3; attempt++) {
    const answer = await call(config, 'POST', '/graphql', { query, variables: { i: input } });
    if (answer.status === 200) {
      const id = JSON.parse(answer.text).data?.createMember?.id;
      if (id) return id;
    }
    await sleep(200);
  }
  return null;
}

/** Charges a new member under one Idempotency-Key, retried up to three times on no answer, 5xx or 409. */
async function pay(config: LoadConfig, report: LoadReport): Promise<void> {
  const memberId = await newMember(config);
  if (!memberId) return;
  const key = randomUUID();
  report.payment.sent++;
  let last = { status: 0, cause: 'none', text: '', ms: 0, retryAfter: 0 };
  for (let attempt = 0; attempt < 4; attempt++) {
    if (attempt > 0) {
      report.payment.retried++;
      // The server's Retry-After when it gives one (at most 10 s), else 250 ms, 1 s, 4 s.
      await sleep(last.retryAfter > 0 ? Math.min(10_000, last.retryAfter * 1_000) : 250 * 4 ** (attempt - 1));
    }
    last = await call(config, 'POST', '/inventory/members/manual-payment', { memberId, paymentMethodId: config.paymentMethodId }, { 'Idempotency-Key': key });
    report.payment.latenciesMs.push(last.ms);
    if (last.status !== 0 && last.status < 500 && last.status !== 409) break;
  }
  if (last.status === 200 && JSON.parse(last.text).status === 'SUCCEEDED') {
    report.payment.succeeded++;
    report.payments.push({ memberId, key, paymentId: JSON.parse(last.text).paymentId });
    return;
  }
  fail(report.payment, last.cause);
  if (last.status === 0 || last.status >= 500 || last.status === 409) report.unanswered.push(memberId);
}

/** A dashboard POST: not idempotent, so never retried; a 201 is an acknowledged write. */
async function createDashboard(config: LoadConfig, report: LoadReport, n: number): Promise<void> {
  report.dashboard.sent++;
  const answer = await call(config, 'POST', '/analytics/dashboards', { name: `${config.label} ${n}` });
  report.dashboard.latenciesMs.push(answer.ms);
  if (answer.status === 201) {
    report.dashboard.succeeded++;
    report.dashboards.push(JSON.parse(answer.text).id);
  } else fail(report.dashboard, answer.cause);
}

/** A read: the first page of dashboards, retried like any idempotent request would be by a client: not here, to count failures. */
async function read(config: LoadConfig, report: LoadReport): Promise<void> {
  report.read.sent++;
  const answer = await call(config, 'GET', '/analytics/dashboards?per_page=5');
  report.read.latenciesMs.push(answer.ms);
  if (answer.status === 200) report.read.succeeded++;
  else fail(report.read, answer.cause);
}

/** Runs the loops for the configured time: of every ten requests six reads, two dashboards, two payments. */
export async function runLoad(config: LoadConfig): Promise<LoadReport> {
  const report: LoadReport = { read: tally(), dashboard: tally(), payment: tally(), dashboards: [], payments: [], unanswered: [] };
  const until = Date.now() + config.seconds * 1_000;
  let counter = 0;
  await Promise.all(
    Array.from({ length: config.concurrency }, async (_, loop) => {
      for (let i = loop; Date.now() < until; i++) {
        const slot = i % 10;
        if (slot < 6) await read(config, report);
        else if (slot < 8) await createDashboard(config, report, counter++);
        else await pay(config, report);
        await sleep(config.pauseMs);
      }
    }),
  );
  return report;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Run on the client host: `node load-client.js <config.json> <report.json>`.
if (require.main === module) {
  const [configFile, reportFile] = process.argv.slice(2);
  runLoad(JSON.parse(readFileSync(configFile, 'utf8'))).then(
    (report) => writeFileSync(reportFile, JSON.stringify(report)),
    (err) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
