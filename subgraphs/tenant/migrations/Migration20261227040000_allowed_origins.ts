import { Migration } from '@mikro-orm/migrations';

/** The web origins a tenant lets call the API from a browser with a person's bearer session (docs/access.md, Browsers on other origins). */
export class Migration20261227040000_allowed_origins extends Migration {
  async up(): Promise<void> {
    this.addSql(`alter table "tenant"."tenants" add column "allowed_origins" text[] not null default '{}';`);
    this.addSql(`create index "tenants_allowed_origins_idx" on "tenant"."tenants" using gin ("allowed_origins");`);
  }

  async down(): Promise<void> {
    this.addSql(`alter table "tenant"."tenants" drop column "allowed_origins";`);
  }
}
