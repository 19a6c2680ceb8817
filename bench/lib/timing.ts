/** Latencies of one target, in milliseconds, as measured by a timing loop. */
export interface Timings {
  samples: number[];
  p50: number;
  p95: number;
  max: number;
}

/** Percentile by nearest rank over sorted samples. */
function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Summarises samples. */
export function summarise(samples: number[]): Timings {
  const sorted = [...samples].sort((a, b) => a - b);
  return { samples, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1] ?? NaN };
}

/** Times one call. */
async function timed(call: () => Promise<void>): Promise<number> {
  const started = process.hrtime.bigint();
  await call();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** `count` calls one after another: the latency of a request on an otherwise idle server. */
export async function sequential(call: () => Promise<void>, count: number): Promise<Timings> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) samples.push(await timed(call));
  return summarise(samples);
}

/** `workers` loops of `each` calls running at once: the latency when requests queue for the database's cores. */
export async function concurrent(call: () => Promise<void>, workers: number, each: number): Promise<Timings> {
  const samples: number[] = [];
  await Promise.all(Array.from({ length: workers }, async () => {
    for (let i = 0; i < each; i++) samples.push(await timed(call));
  }));
  return summarise(samples);
}
