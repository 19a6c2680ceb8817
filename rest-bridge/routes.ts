import { ANALYTICS_ROUTES } from './routes/analytics.routes';
import { AUDIT_ROUTES } from './routes/audit.routes';
import { BILLING_ROUTES, PAYMENT_METHOD_ROUTES } from './routes/billing.routes';
import { CAMPAIGN_ROUTES } from './routes/campaign.routes';
import { NOTES_ROUTES } from './routes/notes.routes';
import { TENANT_ROUTES } from './routes/tenant.routes';
import type { RouteDefinition } from './types';

/**
 * The REST surface, one entry per endpoint of the contract (spec part 4), in the contract's order,
 * then the platform's own (the audit trail); each area's entries live in `routes/<area>.routes.ts`.
 * Each entry names the GraphQL operation it runs; the OpenAPI document is generated from this table.
 */
export const ROUTES: RouteDefinition[] = [...TENANT_ROUTES, ...ANALYTICS_ROUTES, ...PAYMENT_METHOD_ROUTES, ...CAMPAIGN_ROUTES, ...BILLING_ROUTES, ...NOTES_ROUTES, ...AUDIT_ROUTES];
