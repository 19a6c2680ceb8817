import { randomUUID } from 'node:crypto';
import { Entity, Filter, PrimaryKey, Property } from '@mikro-orm/core';
import type { StoredTenantSettings } from '../tenant-settings';

/** A clinic (practice) using the platform; the root of all tenant data. */
@Entity({ tableName: 'tenants' })
// The tenant row is its own scope: a request sees only the tenant it authenticated as.
@Filter({ name: 'tenant', cond: (args: { tenantId: string }) => ({ id: args.tenantId }), default: true })
export class Tenant {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', fieldName: 'legal_name', nullable: true })
  legalName: string | null = null;

  @Property({ type: 'text' })
  timezone = 'UTC';

  @Property({ type: 'text' })
  locale = 'en-US';

  @Property({ type: 'text' })
  currency = 'USD';

  @Property({ type: 'text', nullable: true })
  website: string | null = null;

  @Property({ type: 'text', nullable: true })
  phone: string | null = null;

  @Property({ type: 'text', fieldName: 'contact_email', nullable: true })
  contactEmail: string | null = null;

  @Property({ type: 'text', fieldName: 'primary_color', nullable: true })
  primaryColor: string | null = null;

  @Property({ type: 'text', fieldName: 'address_line1', nullable: true })
  addressLine1: string | null = null;

  @Property({ type: 'text', fieldName: 'address_line2', nullable: true })
  addressLine2: string | null = null;

  @Property({ type: 'text', fieldName: 'address_city', nullable: true })
  addressCity: string | null = null;

  @Property({ type: 'text', fieldName: 'address_state', nullable: true })
  addressState: string | null = null;

  @Property({ type: 'text', fieldName: 'address_postal_code', nullable: true })
  addressPostalCode: string | null = null;

  @Property({ type: 'text', fieldName: 'address_country', nullable: true })
  addressCountry: string | null = null;

  /** Only the keys a tenant changed; defaults are applied on read (tenant-settings.ts), so new settings need no data migration. */
  @Property({ type: 'json' })
  settings: StoredTenantSettings = {};

  /** The logo shown to patients: an asset of this tenant. */
  @Property({ type: 'uuid', fieldName: 'logo_asset_id', nullable: true })
  logoAssetId: string | null = null;

  /** The logo printed on receipts. */
  @Property({ type: 'uuid', fieldName: 'receipt_logo_asset_id', nullable: true })
  receiptLogoAssetId: string | null = null;

  /** Whether its people must use a second factor (TOTP) to sign in (docs/access.md, Signing in). */
  @Property({ type: 'boolean', fieldName: 'two_factor_required' })
  twoFactorRequired: boolean = false;

  /** Web origins (`https://app.example.com`) whose pages may call the API with a person's bearer session. */
  @Property({ type: 'text[]', fieldName: 'allowed_origins' })
  allowedOrigins: string[] = [];

  /** The OpenID Connect issuer its people sign in with (docs/access.md, Single sign-on); null: single sign-on is off. */
  @Property({ type: 'text', fieldName: 'oidc_issuer', nullable: true })
  oidcIssuer: string | null = null;

  /** This service's client id at that issuer. */
  @Property({ type: 'text', fieldName: 'oidc_client_id', nullable: true })
  oidcClientId: string | null = null;

  /** The client's secret at that issuer: never shown again once configured. */
  @Property({ type: 'text', fieldName: 'oidc_client_secret', nullable: true, hidden: true })
  oidcClientSecret: string | null = null;

  /** Set on a test twin: the live tenant whose test mode it is (docs/api.md, Test mode); null on a live tenant. */
  @Property({ type: 'uuid', fieldName: 'live_tenant_id', nullable: true })
  liveTenantId: string | null = null;

  @Property({ type: 'timestamptz', fieldName: 'created_at' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', fieldName: 'updated_at', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
