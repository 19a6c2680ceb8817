import { combineLoads, describeFailures, isClean, type LoadShape, type LoadSummary } from './lib/load';
import { formatMachine, type Machine } from './lib/machine';
import { markdownTable } from './lib/table';

/** The three servers compared: the project's gateway in distributed mode, Hive Gateway in front of the same services, the all-in-one app. */
export const GATEWAYS = ['ours', 'hive', 'allInOne'] as const;
export type Gateway = (typeof GATEWAYS)[number];
/** `publicTenant` (one subgraph) and merchant accounts with their locations (billing, then tenant). */
export const QUERIES = ['publicTenant', 'merchantAccounts'] as const;
export type Query = (typeof QUERIES)[number];
/** One tenant's identical queries from every connection; the same query for 50 tenants in turn. */
export const LOADS = ['oneTenant', 'fiftyTenants'] as const;
export type Load = (typeof LOADS)[number];

/** Issue 21's targets, as ratios of Hive Gateway's req/s on every pair. */
export const PEER_TARGETS = { oursOverHive: 1.0, allInOneOverHive: 1.5 };

/** One measured cell: a gateway on a query and a load in one round. */
export interface Cell {
  round: number;
  gateway: Gateway;
  query: Query;
  load: Load;
  run: LoadSummary;
  /** CPU time of the gateway's processes (all-in-one: the whole app) per answered request, in microseconds. */
  gatewayCpuUs: number;
  /** CPU time of the four subgraph services per answered request (0 for all-in-one). */
  subgraphCpuUs: number;
}

/** Where and how it was measured, for the record. */
export interface PeerConditions {
  date: Date;
  machine: Machine;
  workers: number;
  database: string;
  shape: LoadShape;
  rounds: number;
  warmupSeconds: number;
  tenants: number;
  hiveVersion: string;
}

/** The judged result: valid only when every request of every cell was answered 2xx. */
export interface PeerReport {
  valid: boolean;
  misses: string[];
  markdown: string;
}

const LABEL: Record<Gateway, string> = { ours: 'ours, distributed', hive: 'Hive Gateway', allInOne: 'all-in-one' };
const QUERY_LABEL: Record<Query, string> = { publicTenant: '`publicTenant` (1 subgraph)', merchantAccounts: 'merchant accounts + locations (2 subgraphs)' };
const LOAD_LABEL: Record<Load, string> = { oneTenant: 'one tenant', fiftyTenants: '50 tenants' };
const rps = (n: number) => Math.round(n).toLocaleString('en-US');
const times = (n: number) => `${n.toFixed(2)}x`;
const us = (n: number) => (Number.isFinite(n) ? String(Math.round(n)) : 'n/a');

/** Combines the rounds, computes ratios and verdicts, and writes the RESULTS.md section. */
export function buildPeerReport(cells: Cell[], rssMiB: Record<Gateway, number>, conditions: PeerConditions): PeerReport {
  const problems = cells.filter((cell) => !isClean(cell.run)).map((cell) => `round ${cell.round} ${cell.run.target}: ${describeFailures(cell.run)}`);
  const valid = problems.length === 0;
  const of = (gateway: Gateway, query: Query, load: Load) => cells.filter((c) => c.gateway === gateway && c.query === query && c.load === load);
  const combined = (gateway: Gateway, query: Query, load: Load) => combineLoads(of(gateway, query, load).map((c) => c.run)).requestsPerSecond;
  const perRound = (over: Gateway, query: Query, load: Load) => {
    const hive = of('hive', query, load);
    return of(over, query, load).map((cell, i) => cell.run.requestsPerSecond / hive[i].run.requestsPerSecond);
  };
  const cpu = (gateway: Gateway, query: Query, load: Load, pick: (c: Cell) => number) => {
    const parts = of(gateway, query, load);
    return parts.reduce((total, c) => total + pick(c) * c.run.total, 0) / Math.max(1, parts.reduce((total, c) => total + c.run.total, 0));
  };
  const spread = (values: number[]) => (values.length > 1 ? ` (${times(Math.min(...values))}-${times(Math.max(...values))})` : '');

  const cpuOf = (gateway: Gateway) => cells.filter((c) => c.gateway === gateway).reduce((t, c) => t + (c.gatewayCpuUs + c.subgraphCpuUs) * c.run.total, 0) / Math.max(1, cells.filter((c) => c.gateway === gateway).reduce((t, c) => t + c.run.total, 0));
  const misses: string[] = [];
  const verdictRows: string[][] = [];
  const cpuRows: string[][] = [];
  for (const query of QUERIES) {
    for (const load of LOADS) {
      const [ours, hive, allInOne] = GATEWAYS.map((g) => combined(g, query, load));
      const oursRatio = ours / hive;
      const allInOneRatio = allInOne / hive;
      const oursPass = oursRatio >= PEER_TARGETS.oursOverHive;
      const allInOnePass = allInOneRatio >= PEER_TARGETS.allInOneOverHive;
      if (!oursPass) misses.push(`ours / Hive on ${QUERY_LABEL[query]}, ${LOAD_LABEL[load]}: ${times(oursRatio)}`);
      if (!allInOnePass) misses.push(`all-in-one / Hive on ${QUERY_LABEL[query]}, ${LOAD_LABEL[load]}: ${times(allInOneRatio)}`);
      verdictRows.push([
        QUERY_LABEL[query],
        LOAD_LABEL[load],
        rps(ours),
        rps(hive),
        rps(allInOne),
        `**${times(oursRatio)}**${spread(perRound('ours', query, load))}`,
        oursPass ? 'PASS' : 'MISS',
        `**${times(allInOneRatio)}**${spread(perRound('allInOne', query, load))}`,
        allInOnePass ? 'PASS' : 'MISS',
      ]);
      cpuRows.push([
        QUERY_LABEL[query],
        LOAD_LABEL[load],
        us(cpu('ours', query, load, (c) => c.gatewayCpuUs)),
        us(cpu('hive', query, load, (c) => c.gatewayCpuUs)),
        times(cpu('ours', query, load, (c) => c.gatewayCpuUs) / cpu('hive', query, load, (c) => c.gatewayCpuUs)),
        us(cpu('ours', query, load, (c) => c.subgraphCpuUs)),
        us(cpu('hive', query, load, (c) => c.subgraphCpuUs)),
        us(cpu('allInOne', query, load, (c) => c.gatewayCpuUs)),
      ]);
    }
  }
  const verdictTable = markdownTable(
    ['query', 'load', 'ours req/s', 'Hive req/s', 'all-in-one req/s', 'ours / Hive (rounds)', `>= ${times(PEER_TARGETS.oursOverHive)}`, 'all-in-one / Hive (rounds)', `>= ${times(PEER_TARGETS.allInOneOverHive)}`],
    verdictRows,
    [false, false, true, true, true, true, false, true, false],
  );
  const cpuTable = markdownTable(
    ['query', 'load', 'ours gateway', 'Hive gateway', 'ours / Hive', 'subgraphs behind ours', 'subgraphs behind Hive', 'all-in-one (everything)'],
    cpuRows,
    [false, false, true, true, true, true, true, true],
  );
  const { shape } = conditions;
  const markdown = [
    '## Peer gateway: the project\'s gateway vs Hive Gateway (issue 21, part 2)',
    '',
    `- Date: ${conditions.date.toISOString()}`,
    `- Machine: ${formatMachine(conditions.machine)}; database: ${conditions.database}`,
    `- Servers, side by side in one run: **ours, distributed** = the project's gateway (\`MODE=distributed\`, WEB_CONCURRENCY=${conditions.workers}, in-flight deduplication (\`inflight-dedup\`) on, API keys and rate limits checked) in front of the four subgraph services; **Hive Gateway** ${conditions.hiveVersion} (\`hive-gateway supergraph\`, its defaults, \`--fork ${conditions.workers}\`, identity headers propagated: bench/hive-gateway.config.ts) in front of the same services; **all-in-one** = the app with the subgraphs in-process (WEB_CONCURRENCY=${conditions.workers}, \`inflight-dedup\` on). NODE_ENV=production everywhere.`,
    `- Load: autocannon on the same machine, ${shape.connections} connections, ${shape.durationSeconds} s per cell per round, ${conditions.rounds} rounds (gateways in reverse order in every other round), after ${Math.max(1, conditions.warmupSeconds / 2)} s warm-up per gateway and query. **one tenant**: every request the same tenant's identical query; **50 tenants**: the same query, each request the next of ${conditions.tenants} tenants (each with two locations and two merchant accounts).`,
    '',
    verdictTable,
    '',
    'Ratios are of the req/s summed over the rounds; in brackets the lowest and highest single round.',
    '',
    'Server CPU per answered request, microseconds (user + system of all the processes named; PostgreSQL and the load generator not included):',
    '',
    cpuTable,
    '',
    `Resident memory after the load: ours (gateway processes) ${Math.round(rssMiB.ours)} MiB, Hive Gateway ${Math.round(rssMiB.hive)} MiB, all-in-one ${Math.round(rssMiB.allInOne)} MiB.`,
    '',
    misses.length ? `Missed: ${misses.join('; ')}.\n\n${whyItMisses(cpuOf)}` : 'Every target met.',
    '',
    valid ? 'Valid run: every response was 2xx.' : `**INVALID RUN**: not every response was 2xx. ${problems.join('; ')}.`,
  ].join('\n');
  return { valid, misses, markdown };
}

/**
 * The "why it misses" paragraph: throughput on this shared 2-core machine moves with the
 * neighbours, CPU per request much less, so a miss is put next to the CPU each side spent.
 */
function whyItMisses(cpuOf: (gateway: Gateway) => number): string {
  const [ours, hive, allInOne] = GATEWAYS.map(cpuOf);
  return [
    '**Why it misses.** Server CPU per request over all cells, gateway and subgraph services together:',
    `ours ${us(ours)} us, Hive ${us(hive)} us (${times(ours / hive)}), all-in-one ${us(allInOne)} us (${times(allInOne / hive)} of Hive's).`,
    'Where the CPU ratio beats the target and req/s does not, the miss is the shared machine: the load generator,',
    'PostgreSQL, four subgraph services and both gateways share two cores with other work, and the rounds spread as',
    'shown. Where the CPU ratio misses too, the gateway does more work per request than Hive: the CPU table says on which query and load.',
  ].join(' ');
}
