import { performance } from 'node:perf_hooks';
import { benchSetting, type BenchContext } from './lib/context';
import { formatMachine, describeMachine } from './lib/machine';
import { RawConnection, requestMessage, type Exchange } from './notes-migrate-client';
import { describeProcesses, treeCpuMs as cpuMs, treeRssMiB as rssMiB } from './lib/process-tree';
import { say } from './lib/progress';
import { markdownTable } from './lib/table';

/** Issue 6's target: the first event of a migration stream within 100 ms at p99. */
const TARGET_P99_MS = 100;

/** What one stream measured. */
interface StreamRun {
  /** Request sent -> first complete `data:` event read. */
  firstEventMs: number;
  /** Request sent -> stream ended. */
  totalMs: number;
  events: number;
  /** The last event was `done`, every event before it `question`. */
  complete: boolean;
}

/** The judged result, and the Markdown written into RESULTS.md. */
export interface NotesMigrateReport {
  valid: boolean;
  markdown: string;
}

/** Nearest-rank percentile of an ascending list. */
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const ms = (n: number) => n.toFixed(1);

/** Reads a migration stream's answer: its events, and whether they were the whole stream. */
function readStream(exchange: Exchange): StreamRun {
  if (exchange.status !== 200) throw new Error(`migration stream answered ${exchange.status}: ${exchange.body}`);
  const events = exchange.body
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => JSON.parse(frame.slice(6)) as { type: string });
  const complete = events.length > 0 && events.at(-1)!.type === 'done' && events.slice(0, -1).every((e) => e.type === 'question');
  return { firstEventMs: exchange.firstEventMs, totalMs: exchange.totalMs, events: events.length, complete };
}

/** One keep-alive connection per concurrent stream, reopened when the server closed one. */
class Connections {
  private readonly pool: RawConnection[] = [];

  constructor(private readonly url: URL, private readonly size: number) {}

  /** Sends the same request on every connection at once and waits for every answer. */
  async all(request: string): Promise<Exchange[]> {
    for (let i = 0; i < this.size; i++) {
      if (!this.pool[i]?.usable) this.pool[i] = await RawConnection.open(this.url.hostname, Number(this.url.port));
    }
    return Promise.all(this.pool.map((connection) => connection.exchange(request)));
  }

  /** Closes every connection. */
  close(): void {
    for (const connection of this.pool) connection.close();
  }
}

/** A demo tenant (its seeder creates legacy questions) and the REST URL migrating one of them. */
async function prepare(ctx: BenchContext): Promise<{ url: string; plainUrl: string; headers: Record<string, string> }> {
  const created = await fetch(`${ctx.app.url}/admin/tenants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.app.operatorToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench Notes Clinic', demoData: true }),
  });
  if (created.status !== 201) throw new Error(`creating the benchmark tenant failed: ${created.status} ${await created.text()}`);
  const { tenant, apiKey } = (await created.json()) as { tenant: { id: string }; apiKey: string };
  const headers = { TENANT: tenant.id, 'API-KEY': apiKey };
  const list = await fetch(`${ctx.app.url}/graphql`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ noteTemplates(sortDirection: ASC) { nodes { id name questions { id isLegacy } } } }' }),
  });
  const templates = ((await list.json()) as any).data.noteTemplates.nodes as { id: string; name: string; questions: { id: string; isLegacy: boolean }[] }[];
  // The intake form is the longest demo form: the heaviest stream of the three.
  const template = templates.find((t) => t.name === 'New patient intake') ?? templates[0];
  const question = template.questions.find((q) => q.isLegacy)!;
  return { url: `${ctx.app.url}/notes/templates/${template.id}/questions/${question.id}/migrate`, plainUrl: `${ctx.app.url}/tenant/public`, headers };
}

/**
 * Issue 6's performance check: rounds of N concurrent migration streams through the REST path on
 * the built-in provider, measuring time to first event and the app's memory, recorded in RESULTS.md.
 */
export async function benchNotesMigrate(ctx: BenchContext): Promise<NotesMigrateReport> {
  const streams = benchSetting(ctx, 'BENCH_NOTES_STREAMS', 100, 10);
  const rounds = benchSetting(ctx, 'BENCH_NOTES_ROUNDS', 10, 2);
  const pid = ctx.app.child.process.pid!;
  const target = await prepare(ctx);
  const connections = new Connections(new URL(ctx.app.url), streams);
  const migrate = requestMessage('POST', new URL(target.url), target.headers);
  const plainRequest = requestMessage('GET', new URL(target.plainUrl), target.headers);
  try {
    // Warm up as the other benchmarks do (BENCH_WARMUP seconds of the same load, at least one
    // round): a server that has run a few hundred streams is not yet JIT-compiled, one in service is.
    say(`notes-migrate: warming up for ${ctx.warmupSeconds} s with rounds of ${streams} streams`);
    const warmUntil = performance.now() + ctx.warmupSeconds * 1_000;
    let warmRounds = 0;
    do {
      await connections.all(migrate);
      await connections.all(plainRequest);
      warmRounds++;
    } while (performance.now() < warmUntil);
    say(`notes-migrate: ${warmRounds} warm-up rounds`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const rssBefore = rssMiB(pid);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMiB(pid))), 5);
    const runs: StreamRun[] = [];
    const roundMs: number[] = [];
    const cpuBefore = cpuMs(pid);
    try {
      for (let round = 1; round <= rounds; round++) {
        const started = performance.now();
        runs.push(...(await connections.all(migrate)).map(readStream));
        roundMs.push(performance.now() - started);
        say(`notes-migrate: round ${round}/${rounds}: ${streams} streams in ${ms(roundMs.at(-1)!)} ms`);
      }
    } finally {
      clearInterval(sampler);
    }
    const streamCpuMs = (cpuMs(pid) - cpuBefore) / runs.length;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const rssAfter = rssMiB(pid);
    say(`notes-migrate: reference: ${rounds} rounds of ${streams} concurrent GET /tenant/public`);
    const plain: number[] = [];
    const plainCpuBefore = cpuMs(pid);
    for (let round = 1; round <= rounds; round++) {
      for (const exchange of await connections.all(plainRequest)) {
        if (exchange.status !== 200) throw new Error(`GET /tenant/public answered ${exchange.status}`);
        plain.push(exchange.totalMs);
      }
    }
    const plainCpuMs = (cpuMs(pid) - plainCpuBefore) / plain.length;
    plain.sort((a, b) => a - b);
    return report(ctx, { streams, rounds, runs, roundMs, plain, rssBefore, rssPeak, rssAfter, streamCpuMs, plainCpuMs });
  } finally {
    connections.close();
  }
}

/** What the rounds measured. */
interface Measured {
  streams: number;
  rounds: number;
  runs: StreamRun[];
  roundMs: number[];
  plain: number[];
  rssBefore: number;
  rssPeak: number;
  rssAfter: number;
  /** The app's CPU time per stream, and per reference request. */
  streamCpuMs: number;
  plainCpuMs: number;
}

/** Judges the run and writes its section of RESULTS.md. */
function report(ctx: BenchContext, { streams, rounds, runs, roundMs, plain, rssBefore, rssPeak, rssAfter, streamCpuMs, plainCpuMs }: Measured): NotesMigrateReport {
  const first = runs.map((r) => r.firstEventMs).sort((a, b) => a - b);
  const total = runs.map((r) => r.totalMs).sort((a, b) => a - b);
  const incomplete = runs.filter((r) => !r.complete).length;
  const valid = incomplete === 0;
  const p99 = percentile(first, 99);
  const table = markdownTable(
    ['measure', 'p50', 'p90', 'p99', 'max'],
    [
      ['time to first event (ms)', ms(percentile(first, 50)), ms(percentile(first, 90)), ms(p99), ms(first.at(-1)!)],
      ['whole stream (ms)', ms(percentile(total, 50)), ms(percentile(total, 90)), ms(percentile(total, 99)), ms(total.at(-1)!)],
      ['reference: GET /tenant/public, whole answer (ms)', ms(percentile(plain, 50)), ms(percentile(plain, 90)), ms(percentile(plain, 99)), ms(plain.at(-1)!)],
    ],
    [false, true, true, true, true],
  );
  const memory = markdownTable(['app RSS', 'MiB'], [['before (idle, after warm-up)', ms(rssBefore)], ['peak during the rounds', ms(rssPeak)], ['after (1 s later)', ms(rssAfter)]], [false, true]);
  const markdown = [
    '## POST /notes/templates/{template_id}/questions/{question_id}/migrate: concurrent streams',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${formatMachine(describeMachine())}`,
    `- Mode: all-in-one (${describeProcesses(ctx.app.workers)}), NODE_ENV=production, LOG_LEVEL=warn, built-in suggestion provider; database: ${ctx.databaseLabel}`,
    `- Load: ${rounds} rounds of ${streams} concurrent streams (after ${ctx.warmupSeconds} s of warm-up rounds of the same streams and reference requests), all sent at once on ${streams} keep-alive connections and each read to its end by a raw HTTP/1.1 client (bench/notes-migrate-client.ts) in the benchmark process on the same machine; ${runs[0]?.events ?? 0} events per stream (the demo intake form). The reference row sends ${streams} concurrent \`GET /tenant/public\` the same way: what any route costs at this concurrency on this machine`,
    '',
    table,
    '',
    memory,
    '',
    `Rounds took ${roundMs.map(ms).join(', ')} ms. App CPU time (all its processes): ${streamCpuMs.toFixed(2)} ms per stream, ${plainCpuMs.toFixed(2)} ms per reference request (100 arriving at once queue behind each other on each event loop, so the last one's first event comes after about 100 times that divided by the processes).`,
    '',
    markdownTable(['target', 'wanted', 'measured', 'verdict'], [['first event p99', `< ${TARGET_P99_MS} ms`, `${ms(p99)} ms`, p99 < TARGET_P99_MS ? 'PASS' : 'MISS']]),
    '',
    valid ? 'Valid run: every stream answered 200 and ended with `done`.' : `**INVALID RUN**: ${incomplete} streams did not end with \`done\`.`,
  ].join('\n');
  ctx.record('notes-migrate', markdown);
  return { valid, markdown };
}
