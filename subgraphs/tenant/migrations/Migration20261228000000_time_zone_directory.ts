import { Migration } from '@mikro-orm/migrations';

/**
 * Publishes each tenant's time zone for other subgraphs (docs/decisions.md, Directory views):
 * analytics gives a widget saved without a zone its tenant's, so a widget's figures do not
 * depend on who runs it. Only the columns listed are a contract.
 */
export class Migration20261228000000_time_zone_directory extends Migration {
  async up(): Promise<void> {
    this.addSql(`create or replace view "tenant"."time_zone_directory" as
      select id, id as tenant_id, timezone from "tenant"."tenants";`);
  }

  async down(): Promise<void> {
    this.addSql(`drop view if exists "tenant"."time_zone_directory";`);
  }
}
