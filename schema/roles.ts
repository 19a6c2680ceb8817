import { ALL_SCOPES, FULL_ACCESS, type Grants, type Scope } from './scopes';

/**
 * A person's role in a tenant (docs/access.md, People and roles): each a fixed set of the same
 * scopes keys carry. Owners and admins may do everything; only an owner makes or unmakes owners.
 */
export const ROLES = {
  owner: ALL_SCOPES,
  admin: ALL_SCOPES,
  analyst: ['tenant:read', 'analytics:read', 'analytics:write'],
  billing: ['tenant:read', 'billing:read', 'billing:write'],
  clinician: ['tenant:read', 'patients:read', 'patients:write', 'notes:read', 'notes:write'],
} as const satisfies Record<string, readonly Scope[]>;

/** One role. */
export type Role = keyof typeof ROLES;

/** Every role, in the order docs list them. */
export const ALL_ROLES = Object.keys(ROLES) as Role[];

/** Whether a text names a role. */
export function isRole(text: unknown): text is Role {
  return typeof text === 'string' && Object.hasOwn(ROLES, text);
}

const GRANTS = new Map<Role, Grants>(ALL_ROLES.map((role) => [role, ROLES[role] === ALL_SCOPES ? FULL_ACCESS : new Set<Scope>(ROLES[role])]));

/** What a role grants: FULL_ACCESS for owner and admin (the check's fast path), its scopes for the others; nothing for an unknown role. */
export function grantsOfRole(role: string): Grants {
  return (isRole(role) && GRANTS.get(role)) || new Set<Scope>();
}
