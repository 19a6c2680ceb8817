import type { Logger } from 'pino';
import { ServiceUnavailableError } from '../../schema/errors';
import type { AuditEntry } from './audit-entry';
import { appendEntries, type Execute } from './audit-store';

/** Records kept waiting at most; past it PHI reads are refused (503) rather than left unrecorded. */
const MAX_WAITING = 50_000;
/** Records per statement. */
const BATCH = 500;
/** How long a record waits for others to share its statement. */
const LINGER_MS = 50;
/** Backoff after a failed write, doubling up to the ceiling. */
const RETRY_MS = { first: 250, max: 10_000 };

/**
 * Where reads of PHI are recorded (docs/audit.md): without holding the request, at least once. A
 * read's record joins a queue that is written in batches on the side; a failed batch is written
 * again (the same ids, so never twice); the queue is drained on close. When the database cannot
 * keep up for long, the queue's bound makes further PHI reads a 503 instead of unrecorded reads.
 * Records still queued when the process dies unexpectedly are lost: at most LINGER_MS of reads
 * normally, more while the database is unreachable (docs/audit.md says so).
 */
export class AuditReadLog {
  private waiting: AuditEntry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private retryMs = RETRY_MS.first;
  private closed = false;

  constructor(private readonly execute: Execute, private readonly log: Logger) {}

  /** Queues a read's record; throws ServiceUnavailableError (503) when the queue is full. */
  add(entry: AuditEntry): void {
    if (this.waiting.length >= MAX_WAITING) throw new ServiceUnavailableError('The audit trail cannot record reads right now; try again shortly', Math.ceil(RETRY_MS.max / 1000));
    this.waiting.push(entry);
    this.schedule(this.waiting.length >= BATCH ? 0 : LINGER_MS);
  }

  /** How many records wait to be written. */
  get pending(): number {
    return this.waiting.length;
  }

  /** Writes everything queued (tests, shutdown); rejects when the database refuses. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.waiting.length > 0) await this.drain();
  }

  /** Stops the timer and writes what waits, giving up (and logging how many were lost) after `graceMs`. */
  async close(graceMs = 5_000): Promise<void> {
    this.closed = true;
    const deadline = Date.now() + graceMs;
    while (this.waiting.length > 0 && Date.now() < deadline) {
      await this.flush().catch(() => new Promise((resolve) => setTimeout(resolve, 100)));
    }
    if (this.waiting.length > 0) this.log.error({ lost: this.waiting.length }, 'audit records of reads could not be written before shutdown');
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.writing || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.drain().then(
        () => {
          this.retryMs = RETRY_MS.first;
          if (this.waiting.length > 0) this.schedule(0);
        },
        (error: unknown) => {
          this.log.warn({ err: error, waiting: this.waiting.length, retryMs: this.retryMs }, 'audit records of reads not written yet; retrying');
          this.schedule(this.retryMs);
          this.retryMs = Math.min(this.retryMs * 2, RETRY_MS.max);
        },
      );
    }, delayMs);
    this.timer.unref();
  }

  /** Writes the queue from its head, one batch at a time, one writer at a time: only this removes records, and only those written. */
  private drain(): Promise<void> {
    this.writing ??= (async () => {
      try {
        while (this.waiting.length > 0) {
          const batch = this.waiting.slice(0, BATCH);
          await appendEntries(this.execute, batch);
          this.waiting.splice(0, batch.length);
        }
      } finally {
        this.writing = null;
      }
    })();
    return this.writing;
  }
}
