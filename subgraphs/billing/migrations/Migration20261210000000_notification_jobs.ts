import { Migration } from '@mikro-orm/migrations';

/**
 * Gift card e-mails run as jobs of the shared job queue (docs/decisions.md, One job queue): each
 * unsent notification names the job of its next attempt, and only that job may send it.
 */
export class Migration20261210000000_notification_jobs extends Migration {
  async up(): Promise<void> {
    this.addSql(`alter table "billing"."notifications" add column "job_id" uuid null;`);
    this.addSql(`create unique index "notifications_job_idx" on "billing"."notifications" ("job_id") where "job_id" is not null;`);
    // Notifications from before this migration get their job when a sender starts.
    this.addSql(`create index "notifications_unqueued_idx" on "billing"."notifications" ("next_attempt_at") where "sent_at" is null and "failed_at" is null and "job_id" is null;`);
  }

  async down(): Promise<void> {
    this.addSql(`alter table "billing"."notifications" drop column "job_id";`);
  }
}
