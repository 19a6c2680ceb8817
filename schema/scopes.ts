/**
 * The scopes a caller may hold (docs/access.md): what an API key or a person's role grants. One
 * per kind of work a clinic would hand to someone, no finer: reading patients is one grant,
 * whatever the list or the record.
 */
export const SCOPES = {
  'tenant:read': "the clinic's profile, logo, locations and providers",
  'tenant:write': "change the clinic's profile and logo, add locations and providers",
  'patients:read': 'patients: names, e-mails, phones (unmasked wherever they appear)',
  'patients:write': 'add patients',
  'analytics:read': 'dashboards, widgets, campaigns, revenue reports and analytics queries',
  'analytics:write': 'create, change and delete dashboards, widgets and campaigns',
  'billing:read': 'gift cards, members and merchant accounts',
  'billing:write': 'issue gift cards, members, payment methods, charges and merchant accounts',
  'notes:read': 'clinical note templates',
  'notes:write': 'create note templates and add or migrate their questions',
  'webhooks:manage': 'the webhook endpoint, its deliveries, redelivery and test events',
  'keys:manage': "list the tenant's API keys",
  'users:manage': "invite people, change their roles, remove them; the tenant's sign-in rules",
  'audit:read': 'the audit trail: who read or changed what, and its export',
} as const;

/** One scope, e.g. `billing:write`. */
export type Scope = keyof typeof SCOPES;

/** Every scope, in the order docs list them. */
export const ALL_SCOPES: readonly Scope[] = Object.keys(SCOPES) as Scope[];

/** Whether a text names a scope. */
export function isScope(text: unknown): text is Scope {
  return typeof text === 'string' && Object.hasOwn(SCOPES, text);
}

/**
 * What a caller was granted. A full key's grant is this one shared set of every scope, so that the
 * check can pass it by identity before looking at the operation.
 */
export type Grants = ReadonlySet<Scope>;

/** The grant of a full key: every scope, today's and any added later. */
export const FULL_ACCESS: Grants = new Set(ALL_SCOPES);
