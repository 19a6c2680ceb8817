import type { MikroORM } from '@mikro-orm/postgresql';
import type { Job } from 'pg-boss' with { 'resolution-mode': 'import' };
import type { Logger } from 'pino';
import type { JobQueue } from '../../../platform/jobs/job-queue';
import { NotificationRepository } from '../repositories/notification.repository';
import { GIFT_CARD_EMAIL_QUEUE, type GiftCardEmailJob } from './email-queue';
import { errorCode, sendGiftCardEmail, type EmailJobOutcome } from './gift-card-email-job';
import type { MailTransport } from '../../common/mail/mail-transport';

/** Sender options; `pollMs` from NOTIFICATION_POLL_MS. */
export interface EmailJobsOptions {
  /** Backstop poll while idle; a new job wakes the worker at once. */
  pollMs: number;
  /** Jobs taken per fetch. */
  batchSize?: number;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/**
 * Billing's gift card e-mail worker on the process's job queue: each job sends one e-mail
 * (gift-card-email-job.ts). Any number of processes may run it: pg-boss hands each job to one
 * worker at a time, and the notification's row lock keeps a job handed out again after an expiry
 * from sending twice.
 */
export class EmailJobs {
  private workId: string | null = null;

  constructor(private readonly orm: MikroORM, private readonly queue: JobQueue, private readonly transport: MailTransport, private readonly options: EmailJobsOptions) {}

  /** Gives unsent notifications of an earlier release a job, then registers the worker. */
  async start(): Promise<void> {
    const adopted = await this.adoptUnqueued();
    if (adopted > 0) this.options.log.info({ adopted }, 'queued notifications from before the job queue');
    // NOTIFY wakes the worker only for an e-mail due at once; a scheduled one is found by polling,
    // so the poll keeps its pace while NOTIFY is on (pg-boss would otherwise relax it to 30 s).
    const pollingIntervalSeconds = Math.max(0.5, this.options.pollMs / 1000);
    this.workId = await this.queue.boss.work<GiftCardEmailJob>(
      GIFT_CARD_EMAIL_QUEUE,
      { batchSize: this.options.batchSize ?? 20, pollingIntervalSeconds, notifyPollingIntervalSeconds: pollingIntervalSeconds, perJobResults: true },
      async (jobs) => {
        const outcomes = await this.sendAll(jobs);
        return jobs.map((j, i) => ({ id: j.id, status: outcomes[i] === 'busy' ? ('failed' as const) : ('completed' as const) }));
      },
    );
  }

  /** Stops taking jobs, waits for the ones in hand, and closes the transport. */
  async stop(): Promise<void> {
    if (this.workId) await this.queue.boss.offWork(GIFT_CARD_EMAIL_QUEUE, { id: this.workId, wait: true });
    this.workId = null;
    this.transport.close();
  }

  /** Sends what is due now without the worker (tests); resolves with how many jobs were taken. */
  async runOnce(): Promise<number> {
    const jobs = await this.queue.boss.fetch<GiftCardEmailJob>(GIFT_CARD_EMAIL_QUEUE, { batchSize: this.options.batchSize ?? 20 });
    const outcomes = await this.sendAll(jobs);
    const done = jobs.filter((_, i) => outcomes[i] !== 'busy').map((j) => j.id);
    const busy = jobs.filter((_, i) => outcomes[i] === 'busy').map((j) => j.id);
    if (done.length) await this.queue.boss.complete(GIFT_CARD_EMAIL_QUEUE, done);
    if (busy.length) await this.queue.boss.fail(GIFT_CARD_EMAIL_QUEUE, busy);
    return jobs.length;
  }

  /** One at a time: e-mail is slow and rare, and each send holds its row's transaction. */
  private async sendAll(jobs: Job<GiftCardEmailJob>[]): Promise<EmailJobOutcome[]> {
    const outcomes: EmailJobOutcome[] = [];
    for (const job of jobs) {
      try {
        outcomes.push(await sendGiftCardEmail(this.orm.em as never, this.transport, job.id, job.data, this.options.log));
      } catch (error) {
        // Bookkeeping failed after the send, or the database is away: the job runs again (at least once).
        this.options.log.error({ notificationId: job.data.notificationId, errorType: errorCode(error) }, 'notification bookkeeping failed; it will be sent again');
        outcomes.push('busy');
      }
    }
    return outcomes;
  }

  /** Notifications queued before e-mail ran on jobs have none: each gets one, due when the row says. */
  private adoptUnqueued(): Promise<number> {
    return this.orm.em.fork().transactional(async (tx) => {
      const rows = await NotificationRepository.adoptUnqueuedUnscoped(tx);
      await this.queue.addInTransaction(tx, GIFT_CARD_EMAIL_QUEUE, rows.map((r) => ({ id: r.jobId, data: { notificationId: r.id, tenantId: r.tenantId }, startAfter: r.due })));
      return rows.length;
    });
  }
}
