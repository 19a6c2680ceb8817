import { Migration } from '@mikro-orm/migrations';

/**
 * Restricted API keys (docs/access.md): a key's scopes (null for a full key, as every key issued
 * before is) and an optional expiry.
 */
export class Migration20261227000000_scoped_keys extends Migration {
  async up(): Promise<void> {
    this.addSql(`alter table "tenant"."api_keys" add column "scopes" text[] null, add column "expires_at" timestamptz null;`);
  }

  async down(): Promise<void> {
    this.addSql(`alter table "tenant"."api_keys" drop column "scopes", drop column "expires_at";`);
  }
}
