import { Migration } from '@mikro-orm/migrations';

/**
 * Single sign-on through OpenID Connect (docs/access.md, Single sign-on): a tenant's identity
 * provider (its issuer, and this service's client id and secret there), and the sign-ins begun
 * with it and not yet back (a hash of the state sent, never the state; the PKCE verifier and the
 * nonce to check the answer with), each usable once, for ten minutes (expired ones are
 * deleted as the tenant's next sign-in begins).
 */
export class Migration20261227050000_single_sign_on extends Migration {
  async up(): Promise<void> {
    this.addSql(`alter table "tenant"."tenants" add column "oidc_issuer" text null, add column "oidc_client_id" text null, add column "oidc_client_secret" text null;`);
    this.addSql(`create table "tenant"."oidc_logins" (
      "id" uuid primary key,
      "tenant_id" uuid not null references "tenant"."tenants" ("id"),
      "state_hash" bytea not null unique,
      "code_verifier" text not null,
      "nonce" text not null,
      "expires_at" timestamptz not null,
      "used_at" timestamptz null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create index "oidc_logins_tenant_expires_idx" on "tenant"."oidc_logins" ("tenant_id", "expires_at");`);
  }

  async down(): Promise<void> {
    this.addSql(`drop table "tenant"."oidc_logins";`);
    this.addSql(`alter table "tenant"."tenants" drop column "oidc_issuer", drop column "oidc_client_id", drop column "oidc_client_secret";`);
  }
}
