import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';

const KILL_AFTER_MS = 5_000;
const TAIL_LINES = 40;
const ECHO_LIMIT = 20;

/** A node child process whose output is kept for error messages and, once ready, echoed with a prefix. */
export interface Child {
  name: string;
  process: ChildProcess;
  /** Its last output lines, for explaining a failed start. */
  tail(): string;
  /** Calls back with every stdout line; returns a function that stops listening. */
  onLine(listener: (line: string) => void): () => void;
  /** Resolves when it exits; rejects never. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** From now on, copy its output to ours (capped), so warnings under load are seen. */
  echo(): void;
  /** SIGTERM, then SIGKILL if it has not exited after 5 s. */
  stop(): Promise<void>;
}

/** Starts `node [nodeArgs] <script> [scriptArgs]` with extra environment variables. */
export function startChild(name: string, script: string, env: Record<string, string>, nodeArgs: string[] = [], scriptArgs: string[] = []): Child {
  const child = spawn(process.execPath, [...nodeArgs, script, ...scriptArgs], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const listeners = new Set<(line: string) => void>();
  let echoing = false;
  let echoed = 0;
  const take = (line: string) => {
    lines.push(line);
    lines.splice(0, Math.max(0, lines.length - TAIL_LINES));
    for (const listener of listeners) listener(line);
    if (!echoing || !line.trim()) return;
    // A failure repeated per request would bury the progress lines and the table.
    if (echoed < ECHO_LIMIT) process.stderr.write(`[${name}] ${line}\n`);
    else if (echoed === ECHO_LIMIT) process.stderr.write(`[${name}] ... further output suppressed\n`);
    echoed++;
  };
  readline.createInterface({ input: child.stdout! }).on('line', take);
  readline.createInterface({ input: child.stderr! }).on('line', take);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (error) => {
      take(`spawn failed: ${error.message}`);
      resolve({ code: null, signal: null });
    });
  });
  return {
    name,
    process: child,
    tail: () => lines.join('\n'),
    onLine(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    exited,
    echo: () => void (echoing = true),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), KILL_AFTER_MS)));
      if ((await Promise.race([exited, late])) === 'late') {
        process.stderr.write(`[${name}] still running ${KILL_AFTER_MS / 1000} s after SIGTERM: SIGKILL\n`);
        child.kill('SIGKILL');
        await exited;
      }
      clearTimeout(timer);
    },
  };
}

/** Rejects with the child's output when it exits before `ready` settles, so a crash is not a timeout. */
export function raceExit<T>(child: Child, ready: Promise<T>): Promise<T> {
  const died = child.exited.then(({ code, signal }) => {
    throw new Error(`${child.name} exited (${signal ?? `code ${code}`}) before it was ready. Its last output:\n${child.tail()}`);
  });
  return Promise.race([ready, died]);
}
