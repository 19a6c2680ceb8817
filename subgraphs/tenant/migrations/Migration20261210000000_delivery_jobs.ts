import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook deliveries run as jobs of the shared job queue (docs/decisions.md, One job queue): each
 * pending delivery names the job of its next attempt, and only that job may claim it.
 */
export class Migration20261210000000_delivery_jobs extends Migration {
  async up(): Promise<void> {
    this.addSql(`alter table "tenant"."webhook_deliveries" add column "job_id" uuid null;`);
    this.addSql(`create unique index "webhook_deliveries_job_idx" on "tenant"."webhook_deliveries" ("job_id") where "job_id" is not null;`);
    // Pending deliveries from before this migration get their job when a worker starts.
    this.addSql(`create index "webhook_deliveries_unqueued_idx" on "tenant"."webhook_deliveries" ("next_attempt_at") where "status" = 'pending' and "job_id" is null;`);
  }

  async down(): Promise<void> {
    this.addSql(`alter table "tenant"."webhook_deliveries" drop column "job_id";`);
  }
}
