import { describeMachine, formatMachine } from './lib/machine';
import { describeProcesses } from './lib/process-tree';
import { markdownTable } from './lib/table';

/** A piece of SPEED_PLUMBING (or `all`), where it is measured, and the target it serves. */
export interface PlumbingCase {
  piece: string;
  mode: 'all-in-one' | 'distributed';
  /** `rest`: GET /tenant/public; `graphql`: POST /graphql with the same query. */
  load: 'rest' | 'graphql';
  serves: string;
}

/** One piece measured with (`on`) and without (`off`) it. */
export interface PieceResult {
  case: PlumbingCase;
  cpuUs: { on: number; off: number };
  /** CPU per request without / with, round by round. */
  rounds: number[];
  rssStart: { on: number; off: number };
  rssAfter: { on: number; off: number };
  requestsPerSecond: { on: number; off: number };
  problems: string[];
}

/** How the run was made, for the record. */
export interface PlumbingConditions {
  workers: number;
  rounds: number;
  roundSeconds: number;
  connections: number;
  warmupSeconds: number;
  database: string;
}

/** What a piece must buy to stay (issue 32): 5% CPU per request, or 10% memory. */
const CPU_BAR = 1.05;
const RSS_BAR = 1.1;

const times = (n: number) => `${n.toFixed(2)}x`;

/** The verdict of one piece: kept when going without it costs at least the bar in CPU or memory. */
export function verdict(result: PieceResult): 'pays' | 'does not pay' {
  const cpu = result.cpuUs.off / result.cpuUs.on;
  const rss = Math.max(result.rssAfter.off / result.rssAfter.on, result.rssStart.off / result.rssStart.on);
  return cpu >= CPU_BAR || rss >= RSS_BAR ? 'pays' : 'does not pay';
}

/** The Markdown section of bench/RESULTS.md for the plumbing benchmark. */
export function buildPlumbingReport(results: PieceResult[], conditions: PlumbingConditions): { valid: boolean; markdown: string } {
  const rows = results.map((r) => [
    r.case.piece === 'all' ? 'all pieces at once' : `\`${r.case.piece}\``,
    r.case.serves,
    `${r.case.mode}, ${r.case.load === 'rest' ? 'REST' : '/graphql'}`,
    `${Math.round(r.cpuUs.on)} / ${Math.round(r.cpuUs.off)}`,
    `**${times(r.cpuUs.off / r.cpuUs.on)}** (${times(Math.min(...r.rounds))}-${times(Math.max(...r.rounds))})`,
    `${Math.round(r.rssStart.on)} / ${Math.round(r.rssStart.off)}`,
    `${Math.round(r.rssAfter.on)} / ${Math.round(r.rssAfter.off)}`,
    verdict(r),
  ]);
  const problems = results.flatMap((r) => r.problems.map((problem) => `${r.case.piece} ${problem}`));
  const markdown = [
    '## Speed plumbing: each piece with and without it (issue 32)',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${formatMachine(describeMachine())}; database: ${conditions.database}`,
    `- Mode: for each piece two apps alike but for \`SPEED_PLUMBING\` (\`on\`, and \`-<piece>\`; \`off\` for all at once), ${describeProcesses(conditions.workers)} each, NODE_ENV=production, LOG_LEVEL=warn; distributed: two gateways in front of the same four subgraph services, whose CPU is counted too`,
    `- Load: autocannon, ${conditions.connections} connections, one tenant, \`GET /tenant/public\` (REST) or \`POST /graphql\` \`publicTenant\`; ${conditions.warmupSeconds} s warm-up of each app, then ${conditions.rounds} rounds of ${conditions.roundSeconds} s per app, alternating (with, without, without, with, ...)`,
    `- Bar (issue 32): a piece stays when going without it costs at least ${Math.round((CPU_BAR - 1) * 100)}% more server CPU per request, or ${Math.round((RSS_BAR - 1) * 100)}% more resident memory in the worst worker`,
    '',
    markdownTable(['piece', 'target served', 'measured on', 'CPU us/req with / without', 'without / with (rounds)', 'RSS MiB at start with / without', 'RSS MiB after with / without', 'verdict'], rows, [false, false, false, true, true, true, true, false]),
    '',
    problems.length ? `**Invalid run**: ${problems.join('; ')}.` : 'Valid run: every response was 2xx.',
  ].join('\n');
  return { valid: problems.length === 0, markdown };
}
