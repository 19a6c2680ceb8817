import type { ChildProcess } from 'node:child_process';
import { eventually } from './eventually';
import { START_LIMIT_MS } from './children';

/** What a test reads from a server process it spawned: its combined output, patterns in it, and its exit. */
export interface WatchedOutput {
  exited: Promise<number | null>;
  output(): string;
  /** The first match of `pattern` in the output, waiting for it up to START_LIMIT_MS (a cold start on a loaded machine). */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  /** The pids of the workers that logged these requests (cluster access-log lines carry the pid; written as the response ends). */
  servedBy(responses: { requestId: string }[]): Promise<Set<number>>;
}

/** Collects a spawned server's stdout and stderr (spawned by spawnChild with `stdio: ['ignore', 'pipe', 'pipe']`). */
export function watchOutput(child: ChildProcess): WatchedOutput {
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitFor = (pattern: RegExp): Promise<RegExpMatchArray> =>
    eventually(() => output.match(pattern), { what: `${pattern} in the output`, timeoutMs: START_LIMIT_MS, intervalMs: 100 }).catch((error: Error) => {
      throw new Error(`${error.message}:\n${output}`);
    });
  const servedBy = async (responses: { requestId: string }[]): Promise<Set<number>> => {
    const pids = new Set<number>();
    for (const { requestId } of responses) pids.add(JSON.parse((await waitFor(new RegExp(`^.*"requestId":"${requestId}".*"status".*$`, 'm')))[0]).pid);
    return pids;
  };
  return { exited, output: () => output, waitFor, servedBy };
}
