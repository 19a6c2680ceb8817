import { formatMachine, type Machine } from './lib/machine';
import { markdownTable } from './lib/table';

/** The two kinds of key compared (docs/access.md): `full` (`hpp_`) and `restricted` (`hpr_`, exactly the scope the load needs). */
export type KeyKind = 'full' | 'restricted';

/** A load both keys are measured on, and the one scope it needs. */
export interface AccessLoad {
  name: 'rest' | 'graphql';
  /** What is sent, for the report, e.g. `GET /tenant/public`. */
  request: string;
  scope: string;
}

/** One load measured with each key, side by side on the same app. */
export interface AccessResult {
  load: AccessLoad;
  /** Server CPU time per answered request in microseconds; NaN where /proc is missing. */
  cpuUs: Record<KeyKind, number>;
  /** CPU per request restricted / full, round by round. */
  rounds: number[];
  requestsPerSecond: Record<KeyKind, number>;
  p99Ms: Record<KeyKind, number>;
  /** What made a side's run invalid (non-2xx answers, connection errors), e.g. `full: 3 non-2xx (403: 3)`. */
  problems: string[];
}

/** How the run was made, for the record. */
export interface AccessConditions {
  date: Date;
  machine: Machine;
  mode: string;
  database: string;
  rounds: number;
  roundSeconds: number;
  connections: number;
  warmupSeconds: number;
}

/** Issue 33's target: a restricted key's scope check costs at most 10% more server CPU per request than a full key's. */
export const TARGET_RESTRICTED_OVER_FULL = 1.1;

const times = (n: number) => `${n.toFixed(2)}x`;
const us = (n: number) => (Number.isNaN(n) ? 'n/a' : String(Math.round(n)));

/** Server CPU per request with the restricted key over the full key's. */
export function restrictedOverFull(result: AccessResult): number {
  return result.cpuUs.restricted / result.cpuUs.full;
}

/** Whether one load meets the target. */
export function meetsTarget(result: AccessResult): boolean {
  return restrictedOverFull(result) <= TARGET_RESTRICTED_OVER_FULL;
}

/** The Markdown section of bench/RESULTS.md for the access benchmark; valid only when every answer was 2xx and CPU was measured. */
export function buildAccessReport(results: AccessResult[], conditions: AccessConditions): { valid: boolean; markdown: string } {
  const problems = results.flatMap((r) => [
    ...r.problems.map((problem) => `${r.load.name} ${problem}`),
    // No CPU figure, no ratio: a run without /proc measured nothing this benchmark judges.
    ...(Number.isNaN(restrictedOverFull(r)) ? [`${r.load.name}: no server CPU measurement (/proc missing)`] : []),
  ]);
  const valid = problems.length === 0;
  const rows = results.map((r) => {
    const verdict = meetsTarget(r) ? 'PASS' : 'MISS';
    return [
      `\`${r.load.request}\``,
      `\`${r.load.scope}\``,
      `${us(r.cpuUs.full)} / ${us(r.cpuUs.restricted)}`,
      `**${times(restrictedOverFull(r))}** (${times(Math.min(...r.rounds))}-${times(Math.max(...r.rounds))})`,
      `${Math.round(r.requestsPerSecond.full)} / ${Math.round(r.requestsPerSecond.restricted)}`,
      `${r.p99Ms.full} / ${r.p99Ms.restricted}`,
      valid ? verdict : `${verdict} (invalid run)`,
    ];
  });
  const markdown = [
    '## Scoped API keys: the scope check on the hot path (issue 33)',
    '',
    `- Date: ${conditions.date.toISOString()}`,
    `- Machine: ${formatMachine(conditions.machine)}; database: ${conditions.database}`,
    `- Mode: ${conditions.mode}; one tenant with two keys on the same app: its full key (\`hpp_\`, FULL_ACCESS, the check returns at once) and a restricted key (\`hpr_\`, no expiry) holding exactly the scope the load needs, whose check walks the operation's root fields (cached per operation) and looks each scope up`,
    `- Load: autocannon, ${conditions.connections} connections; ${conditions.warmupSeconds} s warm-up of each load with each key, then ${conditions.rounds} rounds of ${conditions.roundSeconds} s per load and key, the keys alternating (full, restricted, restricted, full, ...); server CPU is the app's processes' (user + system), PostgreSQL and the load generator not included`,
    `- Target (issue 33): restricted / full server CPU per request <= ${times(TARGET_RESTRICTED_OVER_FULL)}`,
    '',
    markdownTable(['load', 'scope', 'CPU us/req full / restricted', 'restricted / full (rounds)', 'req/s full / restricted', 'p99 ms full / restricted', 'verdict'], rows, [false, false, true, true, true, true, false]),
    '',
    valid ? 'Valid run: every response was 2xx.' : `**INVALID RUN**: ${problems.join('; ')}.`,
  ].join('\n');
  return { valid, markdown };
}
