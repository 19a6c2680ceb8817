/** One sample of the Prometheus text format. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses Prometheus exposition text (prom-client's output: no escaped quotes in our label values). */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)) labels[key] = value;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the sample with exactly these labels (0 when absent, as for a counter never incremented). */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels);
  const found = samples.find((s) => s.name === name && Object.keys(s.labels).length === wanted.length && wanted.every(([k, v]) => s.labels[k] === v));
  return found?.value ?? 0;
}

/** Whether any sample of this name exists. */
export const hasMetric = (samples: Sample[], name: string): boolean => samples.some((s) => s.name === name);
