import type { PublicTenantRecord, TenantRecord } from './repositories/tenant.repository';
import { effectiveSettings, type TenantSettings } from './tenant-settings';
import type { WebhookConfigView } from './webhook-config-view';

/** The tenant's postal address; every line optional. */
export interface TenantAddress {
  line1: string | null;
  line2: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  country: string | null;
}

/** The tenant as GraphQL `Tenant` resolves it. */
export interface TenantView {
  id: string;
  name: string;
  legalName: string | null;
  timezone: string;
  locale: string;
  currency: string;
  website: string | null;
  phone: string | null;
  contactEmail: string | null;
  primaryColor: string | null;
  logoUrl: string | null;
  receiptLogoUrl: string | null;
  address: TenantAddress;
  settings: TenantSettings;
  /** False for a test twin. */
  livemode: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** Set only by `updateWebhookConfig`, so its answer can carry a just-created secret; otherwise loaded on demand. */
  webhookConfig?: WebhookConfigView;
}

/** The public, absolute URL of an asset; links leave the API, so they must not be relative. */
export const assetUrl = (publicUrl: string, assetId: string | null): string | null => (assetId ? `${publicUrl}/assets/${assetId}` : null);

/** Shapes a tenant row for GraphQL: absolute logo URLs, a nested address, settings with defaults. */
export function toTenantView(record: TenantRecord, publicUrl: string): TenantView {
  return {
    id: record.id,
    name: record.name,
    legalName: record.legalName,
    timezone: record.timezone,
    locale: record.locale,
    currency: record.currency,
    website: record.website,
    phone: record.phone,
    contactEmail: record.contactEmail,
    primaryColor: record.primaryColor,
    logoUrl: assetUrl(publicUrl, record.logoAssetId),
    receiptLogoUrl: assetUrl(publicUrl, record.receiptLogoAssetId),
    address: {
      line1: record.addressLine1,
      line2: record.addressLine2,
      city: record.addressCity,
      state: record.addressState,
      postalCode: record.addressPostalCode,
      country: record.addressCountry,
    },
    settings: effectiveSettings(record.settings),
    livemode: record.livemode,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** The tenant as GraphQL `PublicTenant` resolves it. */
export type PublicTenantView = Pick<TenantView, 'id' | 'name' | 'timezone' | 'locale' | 'currency' | 'website' | 'phone' | 'primaryColor' | 'logoUrl' | 'receiptLogoUrl'>;

/** Shapes the public row for GraphQL: absolute logo URLs, as `toTenantView` gives them. */
export function toPublicTenantView(record: PublicTenantRecord, publicUrl: string): PublicTenantView {
  return {
    id: record.id,
    name: record.name,
    timezone: record.timezone,
    locale: record.locale,
    currency: record.currency,
    website: record.website,
    phone: record.phone,
    primaryColor: record.primaryColor,
    logoUrl: assetUrl(publicUrl, record.logoAssetId),
    receiptLogoUrl: assetUrl(publicUrl, record.receiptLogoAssetId),
  };
}
