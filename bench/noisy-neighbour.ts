import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { tenantSubgraph } from '../subgraphs/tenant';
import { openJobQueue } from '../platform/jobs/job-queue';
import type { BenchContext } from './lib/context';
import { waitForIdleDatabase } from './lib/database-idle';
import { describeMachine } from './lib/machine';
import { analyticsFloods, compareUnderFlood, victimSender } from './lib/noisy-analytics';
import { ALONE_EVENTS, ATTACKER_EVENTS, compareWebhooks } from './lib/noisy-webhooks';
import { describeProcesses } from './lib/process-tree';
import { say } from './lib/progress';
import { insertChargeItems } from './lib/revenue-lines';
import { createTenant } from './lib/tenant';
import { startWebhookSink } from './lib/webhook-sink';
import { buildNoisyReport, type ComparisonLine } from './noisy-neighbour-report';

/** Lines each tenant gets: the attacker's make its heavy query heavy, the victim's query counts its own. */
const ATTACKER_LINES = 2_000;
const VICTIM_LINES = 200;

/** Pairs of rounds: at most 3, one when BENCH_DURATION=1 (the smoke run). */
const roundsFor = (durationSeconds: number) => Math.max(1, Math.min(3, durationSeconds));

/**
 * How long the victim's request or event is waited for before it counts at the bound:
 * BENCH_NOISY_BOUND seconds, else 5 s per second of BENCH_DURATION (5 to 120), so that a starved
 * victim (tens of seconds on the code of issue 31) cannot make a short run long.
 */
function waitBound(durationSeconds: number): number {
  const raw = process.env.BENCH_NOISY_BOUND;
  if (raw === undefined || raw === '') return Math.min(120, 5 * durationSeconds);
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 600) throw new Error(`BENCH_NOISY_BOUND must be whole seconds from 1 to 600 (got "${raw}")`);
  return value;
}

/** The settings this run was started with, as a command that repeats it. */
function runCommand(): string {
  const names = ['BENCH_DURATION', 'BENCH_NOISY_BOUND', 'BENCH_WORKERS', 'SPEED_PLUMBING'];
  const set = names.filter((name) => process.env[name]).map((name) => `${name}=${process.env[name]}`);
  return `\`${[...set, 'BENCH_ONLY=noisy-neighbour', 'npm run bench'].join(' ')}\``;
}

/** The commit measured, and BENCH_LABEL (e.g. "before the fixes of issue 31"). */
function codeLabel(): string {
  let commit = 'unknown commit';
  try {
    commit = `commit ${execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()}`;
  } catch {
    // Not a git checkout: the date and the label still say when.
  }
  return process.env.BENCH_LABEL ? `${process.env.BENCH_LABEL} (${commit})` : commit;
}

/**
 * Issue 31's fairness check: a victim tenant's small analytics query and single webhook event,
 * alone and while another tenant floods (findings 4 and 5), side by side in one run; the victim's
 * p50 under flood should stay within 2x of alone and its p99 within 5x.
 */
export async function benchNoisyNeighbour(ctx: BenchContext): Promise<{ markdown: string; valid: boolean }> {
  const loadAtStart = os.loadavg()[0];
  const rounds = roundsFor(ctx.shape.durationSeconds);
  const seconds = Math.max(1, Math.round(ctx.shape.durationSeconds / rounds));
  const { url, operatorToken } = ctx.app;

  const victim = await createTenant(url, operatorToken, 'Noisy neighbour victim');
  const attacker = await createTenant(url, operatorToken, 'Noisy neighbour attacker');
  await insertChargeItems(ctx.databaseUrl, victim.tenantId, VICTIM_LINES);
  await insertChargeItems(ctx.databaseUrl, attacker.tenantId, ATTACKER_LINES);
  say(`noisy-neighbour: victim ${victim.tenantId} (${VICTIM_LINES} lines), attacker ${attacker.tenantId} (${ATTACKER_LINES} lines)`);
  const send = victimSender(url, victim);
  // Warms the victim's path; the floods need none (each request runs for seconds).
  for (let i = 0; i < 20; i++) await (await send()).text();

  const boundSeconds = waitBound(ctx.shape.durationSeconds);
  await waitForIdleDatabase(ctx.databaseUrl, 30_000);

  const lines: ComparisonLine[] = [];
  const floodAnswers: { flood: string; answers: Record<string, number> }[] = [];
  const floods = analyticsFloods(url, attacker);
  for (const flood of floods) {
    say(`noisy-neighbour: analytics under the ${flood.name} flood, ${rounds} x (${seconds} s alone, ${seconds} s flooded)`);
    const result = await compareUnderFlood(send, flood, { rounds, seconds, boundMs: boundSeconds * 1000, databaseUrl: ctx.databaseUrl });
    lines.push({ measured: 'analytics query (REST)', flood: flood.name, alone: result.alone, flooded: result.flooded });
    const drains = result.drains.map((ms) => (ms === null ? 'over 120' : (ms / 1000).toFixed(1))).join(' / ');
    floodAnswers.push({ flood: `${flood.name}: ${flood.description}; database idle again ${drains} s after the flood's last answer`, answers: result.floodAnswers });
  }

  const jobs = await openJobQueue(ctx.databaseUrl, { supervise: false, settings: { superviseSeconds: 5 }, poolMax: 2, onError: (error) => say(`job queue: ${error.message}`) });
  ctx.teardown.add('noisy-neighbour job queue', () => jobs.stop(1_000));
  let secret = '';
  const sink = await startWebhookSink(() => secret, 1);
  ctx.teardown.add('noisy-neighbour webhook sink', () => sink.close());
  say(`noisy-neighbour: webhooks, ${rounds} x (${ALONE_EVENTS} events alone, 1 behind ${ATTACKER_EVENTS} to a dead receiver), bound ${boundSeconds} s`);
  const hooks = await compareWebhooks({ url, operatorToken, jobs, sink, setSecret: (value) => (secret = value) }, rounds, boundSeconds);
  lines.push({ measured: 'webhook event, emit to arrival', flood: 'dead receiver', alone: hooks.alone, flooded: hooks.flooded });
  floodAnswers.push({ flood: `dead receiver: ${ATTACKER_EVENTS} events per flooded round to a receiver that accepts and never answers`, answers: { 'connections accepted': hooks.deadAttempts } });

  // The dispatcher's settings as the app read them, from the environment it inherited.
  const webhookSettings = tenantSubgraph.readSettings?.(process.env).settings?.webhooks;
  const report = buildNoisyReport(lines, {
    date: new Date(),
    machine: describeMachine(),
    label: codeLabel(),
    app: `all-in-one (${describeProcesses(ctx.app.workers)}), NODE_ENV=production, LOG_LEVEL=warn; database: ${ctx.databaseLabel}. RATE_LIMIT_PER_WINDOW=10,000,000, the most the app takes, so no flood is simply rate limited; every other setting its default`,
    rounds,
    setup: [
      `Analytics: the victim (${VICTIM_LINES} charge items) sends \`POST /analytics/widgets/execute-query\` \`{"measures":["revenue.count"]}\` one after another for ${seconds} s per round (a request unanswered after ${boundSeconds} s is given up and counts as ${boundSeconds} s: ">=", a lower bound); the attacker has ${ATTACKER_LINES} charge items. The flood starts 0.5 s before the victim's loop, and each of its loops pauses 100 ms after a refused answer (not a plain 200); after the loop it is stopped, its requests in flight awaited, and the next round waits until no statement runs in the database (a GraphQL answer whose non-null field failed comes back while its other fields' statements still run).`,
      `Webhooks: the dispatcher runs with ${webhookSettings ? `timeout ${webhookSettings.timeoutMs} ms and ${webhookSettings.concurrency} slots` : 'its settings'} (WEBHOOK_* unset: the production defaults), in the app's first process. Alone: ${ALONE_EVENTS} victim events per round, one after another; flooded: the victim's single event, added once the dispatcher has started on the attacker's ${ATTACKER_EVENTS}. Time = arrival at the victim's receiver (node http on 127.0.0.1, answering 204, every signature checked) minus when the event job was added. A victim event missing after ${boundSeconds} s counts as ${boundSeconds} s. Each flooded round uses a fresh attacker tenant and receiver, disabled and dropped after the round.`,
      `Signatures checked at the victim's receiver: ${sink.verified} verified, ${sink.failedVerification} failed.`,
      `Run: ${runCommand()}; load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end, on ${os.availableParallelism()} cores (other work on the machine shows here).`,
    ],
    floodAnswers,
  });
  const valid = report.valid && sink.failedVerification === 0;
  ctx.record('noisy-neighbour', report.markdown);
  return { markdown: report.markdown, valid };
}
