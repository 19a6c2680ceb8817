/** One condition's latencies (alone, or under one flood), kept per round so the spread shows. */
export interface Condition {
  /** Milliseconds of each successful victim request (or event), one array per round. */
  rounds: number[][];
  /** Samples that hit the wait bound: their value is the bound, a lower limit of the real one. */
  censored: number;
  /** Victim answers that were not 2xx, by status (a failed request's time means nothing). */
  failures: Record<string, number>;
}

/** What a condition comes to: pooled percentiles, sample count, and each round's median. */
export interface ConditionSummary {
  count: number;
  p50: number;
  p99: number;
  censored: number;
  roundMedians: number[];
}

/** A condition with no samples yet. */
export const emptyCondition = (): Condition => ({ rounds: [], censored: 0, failures: {} });

/** Percentile by nearest rank over sorted samples; NaN without samples. */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Pools a condition's rounds. With few samples p99 is the largest: the counts are reported beside it. */
export function summariseCondition(condition: Condition): ConditionSummary {
  const sorted = condition.rounds.flat().sort((a, b) => a - b);
  const roundMedians = condition.rounds.map((round) => percentile([...round].sort((a, b) => a - b), 50));
  return { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), censored: condition.censored, roundMedians };
}

/** Adds one to a tally. */
export function count(tally: Record<string, number>, key: string): void {
  tally[key] = (tally[key] ?? 0) + 1;
}
