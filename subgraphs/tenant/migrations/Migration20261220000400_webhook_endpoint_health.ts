import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook fairness per endpoint (docs/webhooks.md, Fairness between endpoints): each endpoint's run
 * of failures and circuit breaker, and why the platform disabled it, live with its configuration
 * so that every dispatcher process sees the same state; deliveries in flight are counted per
 * tenant through their leases.
 */
export class Migration20261220000400_webhook_endpoint_health extends Migration {
  async up(): Promise<void> {
    this.addSql(`alter table "tenant"."webhook_configs"
      add column "consecutive_failures" int not null default 0,
      add column "failing_since" timestamptz null,
      add column "circuit_open_until" timestamptz null,
      add column "disabled_at" timestamptz null,
      add column "disabled_reason" text null;`);
    this.addSql(`create index "webhook_deliveries_leased_idx" on "tenant"."webhook_deliveries" ("tenant_id", "locked_until") where "status" = 'pending' and "locked_until" is not null;`);
  }

  async down(): Promise<void> {
    this.addSql(`drop index "tenant"."webhook_deliveries_leased_idx";`);
    this.addSql(`alter table "tenant"."webhook_configs" drop column "consecutive_failures", drop column "failing_since", drop column "circuit_open_until", drop column "disabled_at", drop column "disabled_reason";`);
  }
}
