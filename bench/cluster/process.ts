import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { namespaceOf, type Host } from './topology';

/** How to start one process of the cluster on a host. */
export interface ProcessSpec {
  /** Unique name, also its log file's (`<logDir>/<name>.log`). */
  name: string;
  host: Host;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Run as this user (PostgreSQL refuses root). */
  user?: string;
  /** A line of its output that says it is ready; without it, ready once spawned. */
  readyLine?: RegExp;
  /** Longest wait for the ready line. */
  readyMs?: number;
}

/**
 * A process of the cluster, started in its host's namespace, in a process group of its own so that a
 * kill reaches whatever it started; its output goes to a log file, read only for its ready line.
 */
export class ClusterProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();

  constructor(
    readonly spec: ProcessSpec,
    private readonly logDir: string,
  ) {}

  /** The log file of this process (appended to across restarts). */
  get logFile(): string {
    return join(this.logDir, `${this.spec.name}.log`);
  }

  /** Whether the process is running now. */
  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts it and waits for its ready line; a start that fails or times out throws with the log's last lines. */
  async start(): Promise<void> {
    const { spec } = this;
    const inner = spec.user ? ['runuser', '-u', spec.user, '--', spec.command, ...spec.args] : [spec.command, ...spec.args];
    const child = spawn('ip', ['netns', 'exec', namespaceOf(spec.host), ...inner], {
      env: { ...process.env, ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const log = createWriteStream(this.logFile, { flags: 'a' });
    let tail = '';
    const ready = new Promise<void>((resolve, reject) => {
      const limit = setTimeout(() => reject(new Error(`${spec.name}: not ready within ${spec.readyMs ?? 60_000} ms; last output:\n${tail}`)), spec.readyMs ?? 60_000);
      const watch = (chunk: Buffer) => {
        log.write(chunk);
        tail = (tail + chunk.toString()).slice(-2000);
        if (spec.readyLine?.test(tail)) {
          clearTimeout(limit);
          resolve();
        }
      };
      child.stdout!.on('data', watch);
      child.stderr!.on('data', watch);
      child.once('exit', (code, signal) => {
        clearTimeout(limit);
        reject(new Error(`${spec.name}: exited (${signal ?? code}) before it was ready; last output:\n${tail}`));
      });
      if (!spec.readyLine) {
        clearTimeout(limit);
        resolve();
      }
    });
    await ready;
  }

  /** Sends a signal to its whole process group (SIGKILL for a crash, SIGSTOP/SIGCONT for a hang). */
  signal(signal: NodeJS.Signals): void {
    if (!this.child?.pid) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // The group is gone.
    }
  }

  /** Stops it: `signal` (SIGTERM; PostgreSQL's fast shutdown is SIGINT), then SIGKILL after `graceMs`; resolves once it has exited. */
  async stop(graceMs = 5_000, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!this.running) return;
    this.signal('SIGCONT');
    this.signal(signal);
    const killer = setTimeout(() => this.signal('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(killer);
  }

  /** Its exit code once it has exited (null while running or when a signal ended it). */
  get exitCode(): number | null {
    return this.child?.exitCode ?? null;
  }

  /** Resolves when the process exits. */
  whenExited(): Promise<void> {
    return this.exited;
  }
}
