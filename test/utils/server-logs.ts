import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Every log the end-to-end servers wrote (global setup sends each process's output to `<work>/<name>.log`, beside DATA_DIR). */
export function serverLogs(): string {
  const work = dirname(process.env.E2E_DATA_DIR!);
  return readdirSync(work)
    .filter((name) => name.endsWith('.log'))
    .map((name) => readFileSync(join(work, name), 'utf8'))
    .join('\n');
}
