import { LOGO_MAX_BYTES } from '../../schema/upload-limits';
import type { DocumentedRoute } from '../openapi';

// The selections are the contract's shapes: REST and GraphQL answer the same fields.
const PUBLIC_FIELDS = 'id name timezone locale currency website phone primaryColor logoUrl receiptLogoUrl';
const PRIVATE_FIELDS = `id name legalName timezone locale currency website phone contactEmail primaryColor logoUrl receiptLogoUrl
  address { line1 line2 city state postalCode country }
  settings { appointmentReminderHours sendReceiptEmails defaultNoteTemplateId }
  livemode createdAt updatedAt`;
const WEBHOOK_FIELDS = 'url enabled events secretHint createdAt updatedAt disabledAt disabledReason';

const EXAMPLE_ID = '6f1c2a9e-3b7d-4c1e-9a52-0d8e4f7b1c33';
const EXAMPLE_LOGO = `https://api.example.com/assets/2b9f61d0-8c4e-4f3a-b1d7-5e2a9c0f4d18`;
const PUBLIC_EXAMPLE = {
  id: EXAMPLE_ID,
  name: 'Riverside Physio',
  timezone: 'America/Los_Angeles',
  locale: 'en-US',
  currency: 'USD',
  website: 'https://riverside.example.com',
  phone: '+1 503 555 0100',
  primaryColor: '#2F6FEB',
  logoUrl: EXAMPLE_LOGO,
  receiptLogoUrl: null,
};
const PRIVATE_EXAMPLE = {
  ...PUBLIC_EXAMPLE,
  legalName: 'Riverside Physio LLC',
  contactEmail: 'frontdesk@riverside.example.com',
  address: { line1: '120 Riverside Drive', line2: 'Suite 200', city: 'Portland', state: 'OR', postalCode: '97201', country: 'US' },
  settings: { appointmentReminderHours: 24, sendReceiptEmails: true, defaultNoteTemplateId: null },
  livemode: true,
  createdAt: '2026-11-22T08:00:00.000Z',
  updatedAt: '2026-12-01T09:30:00.000Z',
};
const WEBHOOK_EXAMPLE = {
  url: 'https://hooks.riverside.example.com/platform',
  enabled: true,
  events: ['tenant.updated', 'gift_card.activated'],
  secretHint: 'whsec_…Q2xk',
  createdAt: '2026-12-01T09:30:00.000Z',
  updatedAt: '2026-12-01T09:30:00.000Z',
  disabledAt: null,
  disabledReason: null,
};
const LOGO_UPLOAD = {
  field: 'file',
  variable: 'file',
  maxBytes: LOGO_MAX_BYTES,
  description: `The image, at most ${LOGO_MAX_BYTES} bytes (2 MiB). PNG, JPEG, WebP or GIF, judged by its bytes; SVG is refused`,
};

/** Contract part 4.1: tenant configuration. */
export const TENANT_ROUTES: DocumentedRoute[] = [
  {
    method: 'GET',
    path: '/tenant/public',
    operationId: 'getPublicTenant',
    summary: 'The tenant as shown to patients',
    tag: 'Tenant',
    document: `query PublicTenant { publicTenant { ${PUBLIC_FIELDS} } }`,
    result: (data) => data.publicTenant,
    responseExample: PUBLIC_EXAMPLE,
  },
  {
    method: 'GET',
    path: '/tenant/private',
    operationId: 'getPrivateTenant',
    summary: "The tenant's whole record",
    tag: 'Tenant',
    document: `query PrivateTenant { tenant { ${PRIVATE_FIELDS} } }`,
    result: (data) => data.tenant,
    responseExample: PRIVATE_EXAMPLE,
  },
  {
    method: 'GET',
    path: '/tenant/logo',
    operationId: 'getTenantLogo',
    summary: "The logo's absolute URL, or null when none is set",
    tag: 'Tenant',
    document: `query TenantLogo { tenantLogo(kind: LOGO) }`,
    result: (data) => data.tenantLogo,
    responseExample: EXAMPLE_LOGO,
  },
  {
    method: 'PUT',
    path: '/tenant/update',
    operationId: 'updateTenant',
    summary: "Change some of the tenant's fields; fields not sent keep their value",
    tag: 'Tenant',
    document: `mutation UpdateTenant($input: UpdateTenantInput!) { updateTenant(input: $input) { ${PRIVATE_FIELDS} } }`,
    body: { variable: 'input', required: true },
    result: (data) => data.updateTenant,
    requestExample: { timezone: 'America/New_York', primaryColor: '#0E7C66', address: { city: 'Portland' }, settings: { appointmentReminderHours: 48 } },
    responseExample: PRIVATE_EXAMPLE,
  },
  {
    method: 'POST',
    path: '/tenant/upload-logo',
    operationId: 'uploadTenantLogo',
    summary: 'Upload the logo (multipart/form-data, field `file`); answers its absolute URL',
    tag: 'Tenant',
    document: `mutation UploadLogo($file: UploadedFileInput!) { setTenantLogo(kind: LOGO, file: $file) }`,
    upload: LOGO_UPLOAD,
    result: (data) => data.setTenantLogo,
    responseDescription: 'The absolute, public URL of the stored logo (immutable: a new upload gets a new URL)',
    responseExample: EXAMPLE_LOGO,
  },
  {
    method: 'POST',
    path: '/tenant/upload-receipt-logo',
    operationId: 'uploadTenantReceiptLogo',
    summary: 'Upload the receipt logo (multipart/form-data, field `file`); answers its absolute URL',
    tag: 'Tenant',
    document: `mutation UploadReceiptLogo($file: UploadedFileInput!) { setTenantLogo(kind: RECEIPT, file: $file) }`,
    upload: LOGO_UPLOAD,
    result: (data) => data.setTenantLogo,
    responseDescription: 'The absolute, public URL of the stored receipt logo',
    responseExample: EXAMPLE_LOGO,
  },
  {
    method: 'GET',
    path: '/tenant/webhook-config',
    operationId: 'getWebhookConfig',
    summary: "The tenant's webhook configuration (never the secret)",
    tag: 'Tenant',
    document: `query WebhookConfig { webhookConfig { ${WEBHOOK_FIELDS} } }`,
    result: (data) => data.webhookConfig,
    responseDescription:
      [
        'The configuration. Before any is saved: `{"url": null, "enabled": false, "events": [], "secretHint": null, "createdAt": null, "updatedAt": null, "disabledAt": null, "disabledReason": null}`.',
        '`disabledAt` and `disabledReason` say when and why the platform disabled the endpoint (every attempt failing for a while, or a 410 Gone answer);',
        'a PUT with `enabled: true` re-enables it and clears them.',
      ].join(' '),
    responseExample: WEBHOOK_EXAMPLE,
  },
  {
    method: 'PUT',
    path: '/tenant/webhook-config',
    operationId: 'updateWebhookConfig',
    summary: 'Change the webhook configuration; answers the tenant with it',
    tag: 'Tenant',
    document: `mutation UpdateWebhookConfig($input: WebhookConfigInput!) {
      updateWebhookConfig(input: $input) { ${PRIVATE_FIELDS} webhookConfig { url enabled events secret secretHint createdAt updatedAt disabledAt disabledReason } }
    }`,
    body: { variable: 'input', required: true },
    result: (data) => data.updateWebhookConfig,
    responseDescription: [
      'The tenant (as `GET /tenant/private`) with its `webhookConfig`.',
      '`webhookConfig.secret` is the whole Standard Webhooks signing secret (`whsec_...`) only in the answer that created it',
      '(the first save) or rotated it (`rotateSecret: true`); it is null in every other answer, which show `secretHint` only.',
      'A new configuration is enabled and subscribed to every catalogue event unless the body says otherwise.',
      '`enabled: true` re-enables an endpoint the platform disabled (`disabledAt`), clearing the notice.',
    ].join(' '),
    requestExample: { url: 'https://hooks.riverside.example.com/platform', enabled: true, events: ['tenant.updated', 'gift_card.activated'], rotateSecret: false },
    responseExample: { ...PRIVATE_EXAMPLE, webhookConfig: { ...WEBHOOK_EXAMPLE, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } },
  },
];
