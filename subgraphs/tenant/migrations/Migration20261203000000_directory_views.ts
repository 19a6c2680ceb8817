import { Migration } from '@mikro-orm/migrations';

/**
 * Read-only directory views the tenant subgraph publishes for other subgraphs (docs/decisions.md, Directory views for billing:
 * a subgraph never imports another). Billing checks that a patient, location or provider exists in
 * the caller's tenant and snapshots names through these, always filtered by `tenant_id`; the
 * tables behind them stay the tenant subgraph's to change. Only the columns listed are a contract.
 */
export class Migration20261203000000_directory_views extends Migration {
  async up(): Promise<void> {
    this.addSql(`create or replace view "tenant"."patient_directory" as
      select id, tenant_id, first_name, last_name, email, phone from "tenant"."patients";`);
    this.addSql(`create or replace view "tenant"."location_directory" as
      select id, tenant_id, name, is_virtual, address_line_one, address_line_two, city, state, zip_code, country,
             partner_location_id, created_at
      from "tenant"."locations";`);
    this.addSql(`create or replace view "tenant"."provider_directory" as
      select id, tenant_id, first_name, last_name from "tenant"."providers";`);
  }

  async down(): Promise<void> {
    this.addSql(`drop view if exists "tenant"."provider_directory";`);
    this.addSql(`drop view if exists "tenant"."location_directory";`);
    this.addSql(`drop view if exists "tenant"."patient_directory";`);
  }
}
