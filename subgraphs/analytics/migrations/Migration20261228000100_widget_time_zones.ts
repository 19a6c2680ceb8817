import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 34: a widget runs in the time zone its query stores. Widgets saved without one ran in
 * UTC, so their figures differed from the tenant's calendar; each now gets its tenant's zone,
 * read from the tenant subgraph's published `tenant.time_zone_directory` (never its tables).
 */
export class Migration20261228000100_widget_time_zones extends Migration {
  async up(): Promise<void> {
    this.addSql(`update "analytics"."widgets" as w
      set "query" = w."query" || jsonb_build_object('timezone', d."timezone")
      from "tenant"."time_zone_directory" as d
      where d."tenant_id" = w."tenant_id" and not (w."query" ? 'timezone');`);
  }

  async down(): Promise<void> {
    // Irreversible by design: which widgets had no zone is not kept, and the zone they got is their tenant's.
  }
}
