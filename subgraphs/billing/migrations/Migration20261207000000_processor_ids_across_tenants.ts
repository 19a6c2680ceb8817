import { Migration } from '@mikro-orm/migrations';

// Both tables hold a processor's id (one processor per deployment) that must be one tenant's alone.
const TABLES = [
  { table: 'merchant_accounts', column: 'processor_account_id' },
  { table: 'payment_methods', column: 'processor_payment_method_id' },
] as const;

/**
 * A processor's merchant account id or payment method token belongs to one tenant: before this,
 * uniqueness was per tenant, so a tenant could register another's account or card token (sandbox
 * ids are predictable) and charge through it. Rows already shared by several tenants are kept
 * (the migration cannot tell who is right and must not fail on a live database): the earliest
 * registration stays the owner, every later one is marked `processor_id_disputed`, left out of
 * the new index, and cannot be charged until an operator resolves it (docs/api.md, Billing).
 */
export class Migration20261207000000_processor_ids_across_tenants extends Migration {
  async up(): Promise<void> {
    for (const { table, column } of TABLES) {
      this.addSql(`alter table "billing"."${table}" add column "processor_id_disputed" boolean not null default false;`);
      this.addSql(`update "billing"."${table}" later set "processor_id_disputed" = true
        where exists (select 1 from "billing"."${table}" earlier
                      where earlier."${column}" = later."${column}" and earlier."tenant_id" <> later."tenant_id"
                        and (earlier."created_at", earlier."id") < (later."created_at", later."id"));`);
      this.addSql(`create unique index "${table}_processor_id_across_tenants_uq" on "billing"."${table}" ("${column}") where not "processor_id_disputed";`);
    }
  }

  async down(): Promise<void> {
    for (const { table } of TABLES) {
      this.addSql(`drop index if exists "billing"."${table}_processor_id_across_tenants_uq";`);
      this.addSql(`alter table "billing"."${table}" drop column if exists "processor_id_disputed";`);
    }
  }
}
