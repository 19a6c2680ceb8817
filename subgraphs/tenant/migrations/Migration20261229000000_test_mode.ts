import { Migration } from '@mikro-orm/migrations';

/**
 * Test mode (docs/decisions.md, Test mode: a test twin per tenant): a tenant row may be the test
 * twin of a live one (`live_tenant_id`), at most one twin per live tenant, never a twin of a twin.
 * `tenant_mode_directory` publishes each tenant's mode for other subgraphs (billing picks its
 * processor by it); only the columns listed are a contract.
 */
export class Migration20261229000000_test_mode extends Migration {
  async up(): Promise<void> {
    this.addSql(`alter table "tenant"."tenants" add column "live_tenant_id" uuid null references "tenant"."tenants" ("id") on delete cascade,
      add constraint "tenants_live_tenant_id_not_self" check ("live_tenant_id" <> "id");`);
    this.addSql(`create unique index "tenants_live_tenant_id_unique" on "tenant"."tenants" ("live_tenant_id") where "live_tenant_id" is not null;`);
    this.addSql(`create or replace view "tenant"."tenant_mode_directory" as
      select id, id as tenant_id, live_tenant_id is null as livemode from "tenant"."tenants";`);
  }

  async down(): Promise<void> {
    this.addSql(`drop view if exists "tenant"."tenant_mode_directory";`);
    this.addSql(`drop index if exists "tenant"."tenants_live_tenant_id_unique";`);
    this.addSql(`alter table "tenant"."tenants" drop constraint "tenants_live_tenant_id_not_self", drop column "live_tenant_id";`);
  }
}
