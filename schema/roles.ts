import { ALL_SCOPES, type Scope } from './scopes';

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
