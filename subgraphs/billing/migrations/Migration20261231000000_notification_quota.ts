import { Migration } from '@mikro-orm/migrations';

/**
 * The per-tenant cap on notification e-mails (issue 31, finding 13) counts a tenant's
 * notifications of the last 24 hours at every activation that sends one: an index makes that a
 * range scan of the tenant's own rows.
 */
export class Migration20261231000000_notification_quota extends Migration {
  async up(): Promise<void> {
    this.addSql(`create index if not exists "notifications_tenant_created_idx" on "billing"."notifications" ("tenant_id", "created_at");`);
  }

  async down(): Promise<void> {
    this.addSql(`drop index if exists "billing"."notifications_tenant_created_idx";`);
  }
}
