import { Migration } from '@mikro-orm/migrations';

/** Issued gift cards, their balance transactions and the queued recipient e-mails (contract parts 3 and 4.6). */
export class Migration20261203000200_gift_cards extends Migration {
  async up(): Promise<void> {
    this.addSql(`create table "billing"."gift_cards" (
      "id" uuid primary key,
      "tenant_id" uuid not null,
      "code" text not null,
      "status" text not null check ("status" in ('PENDING', 'ACTIVE', 'DISABLED', 'VOIDED')),
      "is_active" boolean not null default false,
      "initial_value_cents" integer not null check ("initial_value_cents" > 0),
      "current_balance_cents" integer not null default 0 check ("current_balance_cents" >= 0),
      "purchasing_patient_id" uuid null,
      "purchasing_patient_name" text null,
      "purchasing_patient_email" text null,
      "purchasing_patient_phone" text null,
      "recipient_patient_id" uuid null,
      "recipient_patient_name" text null,
      "recipient_patient_email" text null,
      "recipient_patient_phone" text null,
      "recipient_note" text null,
      "charge_item_id" uuid null,
      "scheduled_send_date" timestamptz null,
      "suppress_recipient_notification" boolean not null default false,
      "notification_sent_at" timestamptz null,
      "activated_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(`create unique index "gift_cards_code_uq" on "billing"."gift_cards" ("tenant_id", "code");`);
    this.addSql(`create index "gift_cards_tenant_created_idx" on "billing"."gift_cards" ("tenant_id", "created_at");`);
    this.addSql(`create table "billing"."gift_card_transactions" (
      "id" uuid primary key,
      "tenant_id" uuid not null,
      "gift_card_id" uuid not null references "billing"."gift_cards" ("id") on delete cascade,
      "type" text not null check ("type" in ('ACTIVATION')),
      "amount_cents" integer not null,
      "balance_after_cents" integer not null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(`create index "gift_card_transactions_card_idx" on "billing"."gift_card_transactions" ("gift_card_id", "created_at");`);
    // An e-mail waiting for the in-process sender; queued in the transaction of the change that asks for it.
    this.addSql(`create table "billing"."notifications" (
      "id" uuid primary key,
      "tenant_id" uuid not null,
      "gift_card_id" uuid not null references "billing"."gift_cards" ("id") on delete cascade,
      "kind" text not null check ("kind" in ('gift_card_recipient')),
      "recipient_email" text not null,
      "due_at" timestamptz not null,
      "next_attempt_at" timestamptz not null,
      "attempts" integer not null default 0,
      "last_error" text null,
      "message_id" text null,
      "sent_at" timestamptz null,
      "failed_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    // The sender's only scan: what is still to be sent, by due time.
    this.addSql(`create index "notifications_pending_idx" on "billing"."notifications" ("next_attempt_at") where "sent_at" is null and "failed_at" is null;`);
    this.addSql(`create index "notifications_card_idx" on "billing"."notifications" ("gift_card_id");`);
  }

  async down(): Promise<void> {
    this.addSql(`drop table if exists "billing"."notifications";`);
    this.addSql(`drop table if exists "billing"."gift_card_transactions";`);
    this.addSql(`drop table if exists "billing"."gift_cards";`);
  }
}
