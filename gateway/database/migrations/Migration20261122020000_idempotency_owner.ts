import { Migration } from '@mikro-orm/migrations';

/** Which claim holds an idempotency record, so a late request never completes or releases another's. */
export class Migration20261122020000_idempotency_owner extends Migration {
  async up(): Promise<void> {
    this.addSql(`alter table "gateway"."idempotency_keys" add column "owner" uuid null;`);
  }

  async down(): Promise<void> {
    this.addSql(`alter table "gateway"."idempotency_keys" drop column "owner";`);
  }
}
