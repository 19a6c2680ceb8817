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

/** The two reads the audit trail's cost is judged on: one of PHI that leaves a record, and its proxy that leaves none. */
export type AuditLoadKind = 'audited' | 'unaudited';

/** The audit trail's cost on PHI reads, measured in the same run and on the same app as the scope check. */
export interface AuditResult {
  /** What each side sends, for the report, e.g. `POST /graphql { patients(perPage: 20) ... }`. */
  requests: Record<AuditLoadKind, string>;
  /** Server CPU time per answered request in microseconds; NaN where /proc is missing. */
  cpuUs: Record<AuditLoadKind, number>;
  /** CPU per request audited / unaudited, round by round. */
  rounds: number[];
  requestsPerSecond: Record<AuditLoadKind, number>;
  p99Ms: Record<AuditLoadKind, number>;
  /** Records of reads the tenant's trail gained over the measured rounds, and the audited requests answered and sent. */
  records: { written: number; answered: number; sent: number };
  /** What made a side's run invalid (non-2xx answers, connection errors). */
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
  /** Patients and locations the tenant holds, each. */
  directoryRows: number;
  /** How long after each audit round its CPU was read. */
  settleMs: number;
}

/** Issue 33's target: a restricted key's scope check costs at most 10% more server CPU per request than a full key's. */
export const TARGET_RESTRICTED_OVER_FULL = 1.1;
/** Issue 33's target for the audit trail: a PHI read with its record costs at most 10% more server CPU per request than one without. */
export const TARGET_AUDITED_OVER_UNAUDITED = 1.1;

const times = (n: number) => `${n.toFixed(2)}x`;
const us = (n: number) => (Number.isNaN(n) ? 'n/a' : String(Math.round(n)));
const count = (n: number) => n.toLocaleString('en-US');
const range = (rounds: number[]) => `${times(Math.min(...rounds))}-${times(Math.max(...rounds))}`;

/** Server CPU per request with the restricted key over the full key's. */
export function restrictedOverFull(result: AccessResult): number {
  return result.cpuUs.restricted / result.cpuUs.full;
}

/** Whether one load meets the target. */
export function meetsTarget(result: AccessResult): boolean {
  return restrictedOverFull(result) <= TARGET_RESTRICTED_OVER_FULL;
}

/** Server CPU per request of the audited read over its proxy's. */
export function auditedOverUnaudited(audit: AuditResult): number {
  return audit.cpuUs.audited / audit.cpuUs.unaudited;
}

/** Records of reads written per audited request answered: 1 when every answer left its record. */
export function recordsPerRequest(audit: AuditResult): number {
  return audit.records.written / audit.records.answered;
}

/**
 * What is wrong with the records count, or null. Each answered audited request wrote one record;
 * a request still in flight when a round stopped may have been served, unanswered, and written one
 * too; nothing else may write a record of a read (the proxy, the scope check's loads). So the
 * count lies between the requests answered and those sent: fewer means reads went unrecorded (or
 * were shared by in-flight deduplication), more means something else writes records.
 */
export function recordsProblem(audit: AuditResult): string | null {
  const { written, answered, sent } = audit.records;
  if (answered > 0 && written >= answered && written <= sent) return null;
  return `${count(written)} records of reads written for ${count(answered)} audited requests answered (${count(sent)} sent): expected one per request`;
}

/** The Markdown section of bench/RESULTS.md for the access benchmark; valid only when every answer was 2xx, CPU was measured and each audited read left one record. */
export function buildAccessReport(results: AccessResult[], audit: AuditResult, conditions: AccessConditions): { valid: boolean; markdown: string } {
  const problems = [
    ...results.flatMap((r) => [
      ...r.problems.map((problem) => `${r.load.name} ${problem}`),
      // No CPU figure, no ratio: a run without /proc measured nothing this benchmark judges.
      ...(Number.isNaN(restrictedOverFull(r)) ? [`${r.load.name}: no server CPU measurement (/proc missing)`] : []),
    ]),
    ...audit.problems.map((problem) => `audit ${problem}`),
    ...(Number.isNaN(auditedOverUnaudited(audit)) ? ['audit: no server CPU measurement (/proc missing)'] : []),
    ...[recordsProblem(audit)].filter((problem): problem is string => problem !== null).map((problem) => `audit: ${problem}`),
  ];
  const valid = problems.length === 0;
  const verdict = (pass: boolean) => (valid ? (pass ? 'PASS' : 'MISS') : `${pass ? 'PASS' : 'MISS'} (invalid run)`);
  const scopeRows = results.map((r) => [
    `\`${r.load.request}\``,
    `\`${r.load.scope}\``,
    `${us(r.cpuUs.full)} / ${us(r.cpuUs.restricted)}`,
    `**${times(restrictedOverFull(r))}** (${range(r.rounds)})`,
    `${Math.round(r.requestsPerSecond.full)} / ${Math.round(r.requestsPerSecond.restricted)}`,
    `${r.p99Ms.full} / ${r.p99Ms.restricted}`,
    verdict(meetsTarget(r)),
  ]);
  const auditRow = [
    `${us(audit.cpuUs.audited)} / ${us(audit.cpuUs.unaudited)}`,
    `**${times(auditedOverUnaudited(audit))}** (${range(audit.rounds)})`,
    `${Math.round(audit.requestsPerSecond.audited)} / ${Math.round(audit.requestsPerSecond.unaudited)}`,
    `${audit.p99Ms.audited} / ${audit.p99Ms.unaudited}`,
    recordsPerRequest(audit).toFixed(3),
    verdict(auditedOverUnaudited(audit) <= TARGET_AUDITED_OVER_UNAUDITED),
  ];
  const markdown = [
    '## Scoped API keys and the audit trail: their cost on the hot path (issue 33)',
    '',
    `- Date: ${conditions.date.toISOString()}`,
    `- Machine: ${formatMachine(conditions.machine)}; database: ${conditions.database}`,
    `- Mode: ${conditions.mode}; one tenant on the same app, holding ${conditions.directoryRows} patients and ${conditions.directoryRows} locations created through the API`,
    `- Load: autocannon, ${conditions.connections} connections; ${conditions.warmupSeconds} s warm-up of every load, then ${conditions.rounds} rounds of ${conditions.roundSeconds} s per load and side, the sides alternating (A, B, B, A, ...); server CPU is the app's processes' (user + system), PostgreSQL and the load generator not included`,
    `- Targets (issue 33): restricted / full and audited / unaudited server CPU per request <= ${times(TARGET_RESTRICTED_OVER_FULL)}`,
    '',
    '### The scope check',
    '',
    "The tenant's full key (`hpp_`, FULL_ACCESS, the check returns at once) against a restricted key (`hpr_`, no expiry) holding exactly the scope the load needs, whose check walks the operation's root fields (cached per operation) and looks each scope up.",
    '',
    markdownTable(['load', 'scope', 'CPU us/req full / restricted', 'restricted / full (rounds)', 'req/s full / restricted', 'p99 ms full / restricted', 'verdict'], scopeRows, [false, false, true, true, true, true, false]),
    '',
    '### The audit trail of PHI reads',
    '',
    `- Audited: \`${audit.requests.audited}\` with the full key; each request queues one record of 20 patient ids, written in batches on the side within about 50 ms (docs/audit.md); PostgreSQL's share of them (the insert and the hash chain's trigger) is not in the figures.`,
    `- Unaudited, a proxy for "without": \`${audit.requests.unaudited}\` with the same key, a read of the same shape that is not PHI (the same path: a resolver, its service, one \`findAndCount\` of a flat tenant-scoped entity; three short texts per item, a page of 20). Recording cannot be turned off, and no switch is added for a benchmark: an off switch on an audit trail is a compliance hazard, a setting, a mistake or an intruder away from unrecorded PHI reads. The ratio is the record's cost plus whatever else differs between the two reads.`,
    `- Each side's CPU is read ${conditions.settleMs} ms after its round, so the round's last batch of records is charged to the round that queued it.`,
    '',
    markdownTable(['CPU us/req audited / unaudited', 'audited / unaudited (rounds)', 'req/s audited / unaudited', 'p99 ms audited / unaudited', 'records / request', 'verdict'], [auditRow], [true, true, true, true, true, false]),
    '',
    `Records check: ${count(audit.records.written)} records of reads written during the measured rounds (\`audit.events\`, counted 1 s after the last) for ${count(audit.records.answered)} audited requests answered (${count(audit.records.sent)} sent, those in flight at a round's end included): one per answered request expected, up to one more per request in flight.`,
    '',
    valid ? 'Valid run: every response was 2xx and every audited read left its record.' : `**INVALID RUN**: ${problems.join('; ')}.`,
  ].join('\n');
  return { valid, markdown };
}
