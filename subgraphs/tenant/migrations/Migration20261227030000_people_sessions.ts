import { Migration } from '@mikro-orm/migrations';

/**
 * People and sessions (docs/access.md, People and roles; Sessions): a tenant's users with a role
 * and an Argon2id password hash (none until an invitation is accepted), their one-time invitations
 * (only a hash of the token is kept), and server-side sessions (a hash of the cookie's token, an
 * idle deadline and an absolute one, the CSRF token's hash).
 */
export class Migration20261227030000_people_sessions extends Migration {
  async up(): Promise<void> {
    this.addSql(`create table "tenant"."users" (
      "id" uuid primary key,
      "tenant_id" uuid not null references "tenant"."tenants" ("id"),
      "email" text not null,
      "name" text null,
      "role" text not null,
      "password_hash" text null,
      "totp_secret" text null,
      "status" text not null default 'invited',
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "removed_at" timestamptz null
    );`);
    this.addSql(`create unique index "users_tenant_email_unique" on "tenant"."users" ("tenant_id", lower("email")) where "status" <> 'removed';`);
    this.addSql(`create table "tenant"."invitations" (
      "id" uuid primary key,
      "tenant_id" uuid not null,
      "user_id" uuid not null references "tenant"."users" ("id"),
      "token_hash" bytea not null unique,
      "expires_at" timestamptz not null,
      "accepted_at" timestamptz null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create table "tenant"."sessions" (
      "id" uuid primary key,
      "tenant_id" uuid not null,
      "user_id" uuid not null references "tenant"."users" ("id"),
      "token_hash" bytea not null unique,
      "csrf_hash" bytea not null,
      "idle_expires_at" timestamptz not null,
      "expires_at" timestamptz not null,
      "ended_at" timestamptz null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create index "sessions_user_idx" on "tenant"."sessions" ("user_id") where "ended_at" is null;`);
    this.addSql(`alter table "tenant"."tenants" add column "two_factor_required" boolean not null default false;`);
  }

  async down(): Promise<void> {
    this.addSql(`alter table "tenant"."tenants" drop column "two_factor_required";`);
    this.addSql(`drop table "tenant"."sessions"; drop table "tenant"."invitations"; drop table "tenant"."users";`);
  }
}
