import { formatMachine, type Machine } from './lib/machine';
import { markdownTable } from './lib/table';
import { summariseCondition, type Condition, type ConditionSummary } from './lib/victim-stats';

/** The targets of issue 31: the victim's p50 under flood within 2x of alone, its p99 within 5x. */
export const TARGETS = { p50: 2, p99: 5 };

/** One line of the comparison: what the victim measures, the flood, and both conditions. */
export interface ComparisonLine {
  measured: string;
  flood: string;
  alone: Condition;
  flooded: Condition;
}

/** What the report says about the run besides the numbers. */
export interface NoisyContext {
  date: Date;
  machine: Machine;
  label: string;
  app: string;
  rounds: number;
  setup: string[];
  floodAnswers: { flood: string; answers: Record<string, number> }[];
}

const ms = (value: number) => (Number.isNaN(value) ? 'n/a' : value < 10 ? value.toFixed(1) : value.toFixed(0));
const ratio = (flooded: number, alone: number) => flooded / alone;
const times = (value: number) => (Number.isFinite(value) ? `${value < 10 ? value.toFixed(2) : value.toFixed(0)}x` : 'n/a');
const tally = (answers: Record<string, number>) =>
  Object.entries(answers).sort(([, a], [, b]) => b - a).map(([kind, n]) => `${kind}: ${n}`).join(', ') || 'none';
const spread = (summary: ConditionSummary) => summary.roundMedians.map(ms).join(' / ');

/** The Markdown section of RESULTS.md, and whether the run counts (every victim request answered 2xx, and measured). */
export function buildNoisyReport(lines: ComparisonLine[], context: NoisyContext): { markdown: string; valid: boolean } {
  const rows: string[][] = [];
  const verdicts: string[][] = [];
  let valid = true;
  for (const line of lines) {
    const alone = summariseCondition(line.alone);
    const flooded = summariseCondition(line.flooded);
    const lower = flooded.censored > 0 ? '>= ' : '';
    const p50 = ratio(flooded.p50, alone.p50);
    const p99 = ratio(flooded.p99, alone.p99);
    valid &&= alone.count > 0 && flooded.count > 0 && !Object.keys(line.alone.failures).length && !Object.keys(line.flooded.failures).length;
    rows.push([
      line.measured, line.flood,
      ms(alone.p50), `${lower}${ms(flooded.p50)}`, `${lower}${times(p50)}`,
      ms(alone.p99), `${lower}${ms(flooded.p99)}`, `${lower}${times(p99)}`,
      `${alone.count} / ${flooded.count}${flooded.censored ? ` (${flooded.censored} at the bound)` : ''}`,
      spread(alone), spread(flooded),
    ]);
    verdicts.push([`${line.measured}, ${line.flood} flood: p50 under flood / alone`, `<= ${TARGETS.p50}x`, `${lower}${times(p50)}`, p50 <= TARGETS.p50 ? 'PASS' : 'MISS']);
    verdicts.push([`${line.measured}, ${line.flood} flood: p99 under flood / alone`, `<= ${TARGETS.p99}x`, `${lower}${times(p99)}`, p99 <= TARGETS.p99 ? 'PASS' : 'MISS']);
    const failures = { ...line.alone.failures, ...line.flooded.failures };
    if (Object.keys(failures).length) verdicts.push([`${line.measured}, ${line.flood} flood: victim requests not 2xx`, '0', tally(failures), 'INVALID']);
  }
  const table = markdownTable(
    ['victim measures', 'flood', 'p50 alone ms', 'p50 flood ms', 'p50 ratio', 'p99 alone ms', 'p99 flood ms', 'p99 ratio', 'samples alone / flood', 'round p50s alone', 'round p50s flood'],
    rows,
    [false, false, true, true, true, true, true, true, true, false, false],
  );
  const targetTable = markdownTable(['target', 'wanted', 'measured', 'verdict'], verdicts);
  const markdown = `## Noisy neighbour: a victim tenant's latency, alone and while another tenant floods (issue 31)

- Date: ${context.date.toISOString()}
- Machine: ${formatMachine(context.machine)}
- Code: ${context.label}
- App: ${context.app}
${context.setup.map((line) => `- ${line}`).join('\n')}
- ${context.rounds} pair${context.rounds > 1 ? 's' : ''} of rounds per line, alone and under flood, the order reversed every other pair (A F, F A, ...). Percentiles by nearest rank over all rounds' samples: with few samples p99 is the largest. "round p50s" is each round's median, the spread across rounds.

${table}

What the floods' requests were answered:

${context.floodAnswers.map(({ flood, answers }) => `- ${flood}: ${tally(answers)}`).join('\n')}

${targetTable}

${valid ? 'Valid run: every victim request was answered 2xx and every line has samples in both conditions.' : '**INVALID run**: a victim request failed, or a condition has no samples.'}`;
  return { markdown, valid };
}
