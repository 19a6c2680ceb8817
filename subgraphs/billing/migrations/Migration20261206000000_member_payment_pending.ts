import { Migration } from '@mikro-orm/migrations';

/**
 * A manual payment is committed as PENDING before the processor is called: if the answer is lost
 * (the processor unreachable mid-call, the commit failing after a charge), the row keeps the
 * idempotency key the processor saw, and the member's next payment settles it with that key
 * instead of charging again. At most one can be pending per member.
 */
export class Migration20261206000000_member_payment_pending extends Migration {
  async up(): Promise<void> {
    this.addSql(`alter table "billing"."member_payments" drop constraint "member_payments_status_check";`);
    this.addSql(`alter table "billing"."member_payments" add constraint "member_payments_status_check" check ("status" in ('PENDING', 'SUCCEEDED', 'FAILED'));`);
    this.addSql(`create unique index "member_payments_one_pending" on "billing"."member_payments" ("tenant_id", "member_id") where "status" = 'PENDING';`);
  }

  async down(): Promise<void> {
    this.addSql(`drop index if exists "billing"."member_payments_one_pending";`);
    this.addSql(`update "billing"."member_payments" set "status" = 'FAILED', "failure_reason" = 'outcome_unknown' where "status" = 'PENDING';`);
    this.addSql(`alter table "billing"."member_payments" drop constraint "member_payments_status_check";`);
    this.addSql(`alter table "billing"."member_payments" add constraint "member_payments_status_check" check ("status" in ('SUCCEEDED', 'FAILED'));`);
  }
}
