import { randomUUID } from 'node:crypto';
import { baseUrl, request, type TestTenant } from './e2e';

/** A person of a test tenant who can sign in (docs/access.md, People and roles). */
export interface TestPerson {
  id: string;
  tenantId: string;
  email: string;
  password: string;
  role: string;
}

/** The session cookie's name (gateway/http/sessions.ts). */
export const SESSION_COOKIE = '__Host-hpp_session';

/**
 * Invites a person with `role` through `/graphql` with the tenant's full key (`inviteUser`), and
 * accepts the invitation with a password, as the person would: they can sign in at once.
 */
export async function createTestPerson(tenant: TestTenant, role: string, password = 'correct horse battery staple', base = baseUrl()): Promise<TestPerson> {
  const email = `${role}.${randomUUID().slice(0, 8)}@example.com`;
  const invited = await tenant.graphql('mutation($input: InviteUserInput!) { inviteUser(input: $input) { user { id } invitationToken } }', { input: { email, role: role.toUpperCase() } });
  if (invited.body?.errors || invited.status !== 200) throw new Error(`inviting a person failed: ${invited.status} ${invited.text}`);
  const { user, invitationToken } = invited.body.data.inviteUser;
  const accepted = await request(`${base}/auth/invitations/accept`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: invitationToken, password }) });
  if (accepted.status !== 200) throw new Error(`accepting the invitation failed: ${accepted.status} ${accepted.text}`);
  return { id: user.id, tenantId: tenant.tenantId, email, password, role };
}

/** What a request with this session cookie gets at `GET /auth/session`: 200 while the session lives, 401 once it ended. */
export async function sessionStatus(token: string, base = baseUrl()): Promise<number> {
  return (await request(`${base}/auth/session`, { headers: { cookie: `${SESSION_COOKIE}=${token}` } })).status;
}
