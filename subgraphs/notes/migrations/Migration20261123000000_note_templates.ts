import { Migration } from '@mikro-orm/migrations';

/** Note templates and their ordered questions. */
export class Migration20261123000000_note_templates extends Migration {
  async up(): Promise<void> {
    this.addSql(`create schema if not exists "notes";`);
    this.addSql(`create table "notes"."note_templates" (
      "id" uuid primary key,
      "tenant_id" uuid not null,
      "name" text not null,
      "description" text null,
      "version" integer not null default 1,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(`create index "note_templates_tenant_created_idx" on "notes"."note_templates" ("tenant_id", "created_at", "id");`);
    this.addSql(`create table "notes"."template_questions" (
      "id" uuid primary key,
      "tenant_id" uuid not null,
      "template_id" uuid not null references "notes"."note_templates" ("id") on delete cascade,
      "kind" text not null check ("kind" in ('text', 'text_area', 'number', 'scale', 'yes_no', 'single_choice', 'multiple_choice', 'date')),
      "label" text not null,
      "help_text" text null,
      "options" jsonb not null default '[]',
      "required" boolean not null default false,
      "position" integer not null check ("position" >= 0),
      "is_legacy" boolean not null default false,
      "legacy_content" text null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      -- Deferred: inserting at a position shifts the questions after it in one statement.
      constraint "template_questions_position_unique" unique ("template_id", "position") deferrable initially deferred
    );`);
    this.addSql(`create index "template_questions_tenant_template_idx" on "notes"."template_questions" ("tenant_id", "template_id");`);
  }

  async down(): Promise<void> {
    this.addSql(`drop table if exists "notes"."template_questions";`);
    this.addSql(`drop table if exists "notes"."note_templates";`);
  }
}
