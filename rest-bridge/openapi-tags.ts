import type { JsonSchema } from './json-schema';
import type { RouteDefinition } from './types';

// One line per tag the route table uses; a tag missing here goes undescribed, which `npm run api:lint` (tag-description) refuses.
const TAG_DESCRIPTIONS: Record<string, string> = {
  Tenant: "The clinic's own record: its profile, address, settings, logos and webhook configuration",
  Analytics: 'Dashboards, their widgets, ad-hoc analytics queries and the revenue breakdown',
  'Payment methods': "Cards, bank accounts and wallets stored for a patient at the clinic's payment processor",
  Campaigns: 'Marketing campaigns and the leads their public webhooks receive',
  'Gift cards': 'Gift cards the clinic issued',
  Members: "A member's balance due, charged by hand to one of the patient's payment methods",
  'Merchant accounts': "The clinic's accounts at its payment processors",
  Notes: 'Clinical note templates',
  Audit: "The tenant's audit trail: who read or changed what, and when",
};

/** The document's tags, in first-use order, each with its description. */
export function tagObjects(routes: RouteDefinition[]): JsonSchema[] {
  return [...new Set(routes.map((r) => r.tag))].map((name) => (TAG_DESCRIPTIONS[name] ? { name, description: TAG_DESCRIPTIONS[name] } : { name }));
}
