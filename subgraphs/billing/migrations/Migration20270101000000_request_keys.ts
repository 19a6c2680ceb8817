import { Migration } from '@mikro-orm/migrations';

/**
 * The caller's Idempotency-Key on the writes that charge or activate (docs/api.md, Safe retries):
 * when a gateway dies after the write but before storing its answer, the retry with the same key
 * finds that write here and answers it instead of failing on its effect (nothing due, card not
 * pending). One write per key and tenant; writes without a key (GraphQL callers) keep null.
 */
export class Migration20270101000000_request_keys extends Migration {
  async up(): Promise<void> {
    this.addSql(`alter table "billing"."member_payments" add column "request_key" text null;`);
    this.addSql(`create unique index "member_payments_request_key" on "billing"."member_payments" ("tenant_id", "request_key") where "request_key" is not null;`);
    this.addSql(`alter table "billing"."gift_card_transactions" add column "request_key" text null;`);
    this.addSql(`create unique index "gift_card_transactions_request_key" on "billing"."gift_card_transactions" ("tenant_id", "request_key") where "request_key" is not null;`);
  }

  async down(): Promise<void> {
    this.addSql(`drop index if exists "billing"."gift_card_transactions_request_key";`);
    this.addSql(`alter table "billing"."gift_card_transactions" drop column if exists "request_key";`);
    this.addSql(`drop index if exists "billing"."member_payments_request_key";`);
    this.addSql(`alter table "billing"."member_payments" drop column if exists "request_key";`);
  }
}
