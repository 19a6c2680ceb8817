import { Migration } from '@mikro-orm/migrations';

/** Payment methods, merchant accounts and members with their manual payments (issue 4, contract 4.4, 4.7, 4.8). */
export class Migration20261203000100_payments extends Migration {
  async up(): Promise<void> {
    // Tokenised only: the processor's id and display details, never a full card or account number.
    this.addSql(`create table "billing"."payment_methods" (
      "id" uuid primary key,
      "tenant_id" uuid not null,
      "patient_id" uuid not null,
      "type" text not null check ("type" in ('CARD', 'ACH', 'WALLET_PAY')),
      "processor_payment_method_id" text not null,
      "payment_method_config_id" text null,
      "fingerprint" text null,
      "brand" text null,
      "last4" text null,
      "exp_month" integer null,
      "exp_year" integer null,
      "account_holder_type" text null,
      "account_number_last4" text null,
      "bank_name" text null,
      "routing_number" text null,
      "wallet_type" text null,
      "description" text null,
      "billing_contact" jsonb null,
      "metadata" jsonb null,
      "processor_created_at" timestamptz null,
      "processor_updated_at" timestamptz null,
      "is_default" boolean not null default false,
      "is_archived" boolean not null default false,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(`create index "payment_methods_tenant_patient_idx" on "billing"."payment_methods" ("tenant_id", "patient_id", "created_at");`);
    this.addSql(`create unique index "payment_methods_processor_id_uq" on "billing"."payment_methods" ("tenant_id", "processor_payment_method_id");`);
    // The same card twice for one patient is one record; an archived one may be added again.
    this.addSql(`create unique index "payment_methods_fingerprint_uq" on "billing"."payment_methods" ("tenant_id", "patient_id", "fingerprint") where "fingerprint" is not null and not "is_archived";`);
    this.addSql(`create unique index "payment_methods_default_uq" on "billing"."payment_methods" ("tenant_id", "patient_id") where "is_default" and not "is_archived";`);

    this.addSql(`create table "billing"."merchant_accounts" (
      "id" uuid primary key,
      "tenant_id" uuid not null,
      "processor_account_id" text not null,
      "name" text not null,
      "is_default" boolean not null default false,
      "card_processing_fee" numeric(7, 4) not null default 0,
      "per_transaction_fee_cents" integer not null default 0,
      "in_person_card_processing_fee" numeric(7, 4) not null default 0,
      "in_person_per_transaction_fee_cents" integer not null default 0,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(`create unique index "merchant_accounts_processor_id_uq" on "billing"."merchant_accounts" ("tenant_id", "processor_account_id");`);
    // Exactly one default per tenant: the service moves it inside one transaction, this makes a race fail loudly.
    this.addSql(`create unique index "merchant_accounts_default_uq" on "billing"."merchant_accounts" ("tenant_id") where "is_default";`);
    this.addSql(`create table "billing"."merchant_account_locations" (
      "merchant_account_id" uuid not null references "billing"."merchant_accounts" ("id") on delete cascade,
      "location_id" uuid not null,
      "tenant_id" uuid not null,
      primary key ("merchant_account_id", "location_id")
    );`);
    this.addSql(`create index "merchant_account_locations_location_idx" on "billing"."merchant_account_locations" ("tenant_id", "location_id");`);

    this.addSql(`create table "billing"."members" (
      "id" uuid primary key,
      "tenant_id" uuid not null,
      "patient_id" uuid not null,
      "plan_name" text not null,
      "price_cents" integer not null check ("price_cents" >= 0),
      "billing_interval" text not null check ("billing_interval" in ('MONTH', 'YEAR')),
      "status" text not null check ("status" in ('ACTIVE', 'PAST_DUE', 'CANCELLED')),
      "balance_due_cents" integer not null default 0 check ("balance_due_cents" >= 0),
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(`create index "members_tenant_patient_idx" on "billing"."members" ("tenant_id", "patient_id");`);
    this.addSql(`create index "members_tenant_created_idx" on "billing"."members" ("tenant_id", "created_at");`);
    this.addSql(`create table "billing"."member_payments" (
      "id" uuid primary key,
      "tenant_id" uuid not null,
      "member_id" uuid not null references "billing"."members" ("id") on delete cascade,
      "payment_method_id" uuid not null references "billing"."payment_methods" ("id"),
      "amount_cents" integer not null check ("amount_cents" > 0),
      "status" text not null check ("status" in ('SUCCEEDED', 'FAILED')),
      "failure_reason" text null,
      "processor_payment_id" text null,
      "comment" text null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(`create index "member_payments_member_idx" on "billing"."member_payments" ("tenant_id", "member_id", "created_at");`);
  }

  async down(): Promise<void> {
    this.addSql(`drop table if exists "billing"."member_payments";`);
    this.addSql(`drop table if exists "billing"."members";`);
    this.addSql(`drop table if exists "billing"."merchant_account_locations";`);
    this.addSql(`drop table if exists "billing"."merchant_accounts";`);
    this.addSql(`drop table if exists "billing"."payment_methods";`);
  }
}
