import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { TOTP } from 'otpauth';
import { admin, request, type HttpResult } from '../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';

const COOKIE = '__Host-hpp_session';

/** The session token a response sets, and its Set-Cookie line. */
function sessionCookie(res: HttpResult): { token: string; line: string } {
  const line = res.headers.getSetCookie().find((value) => value.startsWith(`${COOKIE}=`));
  if (!line) throw new Error(`no session cookie in ${res.status} ${res.text}`);
  return { token: line.slice(COOKIE.length + 1).split(';')[0], line };
}

/**
 * People and sessions (docs/access.md): invitations, sign-in, the cookie and its flags, CSRF,
 * roles' scopes, fixation, sign-out, removal seen by another host at once, automatic logoff,
 * failed sign-ins limited, each step audited. Two real apps on one PostgreSQL stand for two hosts.
 */
describe('people and sessions', () => {
  let a: InProcessApp;
  let b: InProcessApp;
  let db: Client;
  let tenantId: string;
  let fullKey: string;

  const post = (app: InProcessApp, path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const asKey = (query: string, variables?: unknown) =>
    request(`${a.url}/graphql`, { method: 'POST', headers: { TENANT: tenantId, 'API-KEY': fullKey, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  const withSession = (app: InProcessApp, token: string, path: string, init: RequestInit = {}) =>
    request(`${app.url}${path}`, { ...init, headers: { cookie: `${COOKIE}=${token}`, ...(init.headers as Record<string, string>) } });
  const graphqlAs = (token: string, csrf: string | null, query: string, app = a) =>
    withSession(app, token, '/graphql', { method: 'POST', headers: { 'content-type': 'application/json', ...(csrf ? { 'x-csrf-token': csrf } : {}) }, body: JSON.stringify({ query }) });

  /** Invites a person with a role and accepts the invitation with a password; their id. */
  async function member(email: string, role: string, password = 'correct horse battery'): Promise<string> {
    const invited = await asKey('mutation($input: InviteUserInput!) { inviteUser(input: $input) { user { id status } invitationToken } }', { input: { email, role: role.toUpperCase() } });
    expect(invited.body.errors).toBeUndefined();
    const { user, invitationToken } = invited.body.data.inviteUser;
    expect(user.status).toBe('INVITED');
    const accepted = await post(a, '/auth/invitations/accept', { token: invitationToken, password });
    expect(accepted.status).toBe(200);
    return user.id;
  }
  const signIn = (email: string, password = 'correct horse battery', app = a, headers: Record<string, string> = {}) => post(app, '/auth/sign-in', { tenantId, email, password }, headers);

  beforeAll(async () => {
    [a, b] = [await startInProcessApp({ SESSION_IDLE_SECONDS: '900' }), await startInProcessApp({ SESSION_IDLE_SECONDS: '900' })];
    const created = await admin('/tenants', { method: 'POST', body: JSON.stringify({ name: 'Session Clinic' }) }, a.url);
    tenantId = created.body.tenant.id;
    fullKey = created.body.apiKey;
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await Promise.all([a.close(), b.close()]);
  });

  it('an invitation is accepted once, with a long enough password', async () => {
    const invited = await asKey('mutation { inviteUser(input: {email: "once@example.com", role: ANALYST}) { invitationToken } }');
    const token = invited.body.data.inviteUser.invitationToken;
    const weak = await post(a, '/auth/invitations/accept', { token, password: 'short' });
    expect(weak.status).toBe(422);
    expect(weak.body.detail[0].loc).toEqual(['body', 'password']);
    expect((await post(a, '/auth/invitations/accept', { token, password: 'a long enough pass' })).status).toBe(200);
    const again = await post(a, '/auth/invitations/accept', { token, password: 'a long enough pass' });
    expect(again.status).toBe(404);
    const duplicate = await asKey('mutation { inviteUser(input: {email: "ONCE@example.com", role: BILLING}) { invitationToken } }');
    expect(duplicate.body.errors[0].extensions.code).toBe('CONFLICT');
  });

  it('signs in with a __Host- cookie (HttpOnly, Secure, SameSite=Strict) and a CSRF token; the role decides the scopes', async () => {
    await member('ana@example.com', 'analyst');
    expect((await signIn('ana@example.com', 'wrong password!!')).status).toBe(401);
    const res = await signIn('ANA@example.com');
    expect(res.status).toBe(200);
    const { token, line } = sessionCookie(res);
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; Secure/);
    expect(line).toMatch(/; SameSite=Strict/);
    expect(line).toMatch(/; Path=\//);
    expect(line).not.toMatch(/Domain=/i);
    const csrf = res.body.csrfToken as string;
    expect(res.body).toMatchObject({ tenantId, user: { role: 'analyst' } });

    // No TENANT, no API-KEY: the cookie says who; a read needs no CSRF token.
    expect((await withSession(a, token, '/tenant/public')).status).toBe(200);
    const session = await withSession(a, token, '/auth/session');
    expect(session.body).toMatchObject({ tenantId, user: { role: 'analyst' }, csrfToken: csrf, scopes: ['tenant:read', 'analytics:read', 'analytics:write'] });
    // A POST without the CSRF token, or with another, is refused before anything runs.
    const noCsrf = await graphqlAs(token, null, '{ dashboards { totalCount } }');
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body).toEqual({ errors: [{ message: 'CSRF token missing or invalid', extensions: { code: 'FORBIDDEN' } }] });
    expect((await graphqlAs(token, 'x'.repeat(43), '{ dashboards { totalCount } }')).status).toBe(403);
    expect((await graphqlAs(token, csrf, '{ dashboards { totalCount } }')).body.data.dashboards.totalCount).toBe(0);
    const patients = await graphqlAs(token, csrf, '{ patients { totalCount } }');
    expect(patients.status).toBe(403);
    expect(patients.body.errors[0].extensions).toEqual({ code: 'FORBIDDEN', scope: 'patients:read' });
    // The TENANT header, if sent, must be the session's.
    const other = await withSession(a, token, '/tenant/public', { headers: { TENANT: '00000000-0000-4000-8000-000000000000' } });
    expect(other.status).toBe(403);
  });

  it('a sign-in never adopts the cookie it was sent (session fixation)', async () => {
    await member('fix@example.com', 'billing');
    const planted = sessionCookie(await signIn('ana@example.com')).token;
    const res = await signIn('fix@example.com', undefined, a, { cookie: `${COOKIE}=${planted}` });
    const { token } = sessionCookie(res);
    expect(token).not.toBe(planted);
    expect((await withSession(a, planted, '/auth/session')).body.user.role).toBe('analyst');
    expect((await withSession(a, token, '/auth/session')).body.user.role).toBe('billing');
  });

  it('signing out ends the session at once, on every host', async () => {
    await member('out@example.com', 'clinician');
    const res = await signIn('out@example.com');
    const { token } = sessionCookie(res);
    expect((await withSession(b, token, '/tenant/public')).status).toBe(200);
    const noCsrf = await withSession(a, token, '/auth/sign-out', { method: 'POST' });
    expect(noCsrf.status).toBe(403);
    const out = await withSession(a, token, '/auth/sign-out', { method: 'POST', headers: { 'x-csrf-token': res.body.csrfToken } });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie()[0]).toMatch(/^__Host-hpp_session=; .*Expires=Thu, 01 Jan 1970/);
    const after = await withSession(b, token, '/tenant/public');
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ detail: 'Session expired or signed out; sign in again' });
  });

  it("an admin's removal ends the person's sessions at once on another host, and they cannot sign in again", async () => {
    const id = await member('gone@example.com', 'clinician');
    const { token } = sessionCookie(await signIn('gone@example.com'));
    expect((await withSession(b, token, '/tenant/public')).status).toBe(200);
    expect((await asKey('mutation($id: ID!) { removeUser(id: $id) }', { id })).body.data.removeUser).toBe(id);
    expect((await withSession(b, token, '/tenant/public')).status).toBe(401);
    expect((await signIn('gone@example.com')).status).toBe(401);
  });

  it('a role change applies at once: the old sessions end', async () => {
    const id = await member('promo@example.com', 'analyst');
    const { token } = sessionCookie(await signIn('promo@example.com'));
    const changed = await asKey('mutation($id: ID!) { changeUserRole(id: $id, role: CLINICIAN) { role } }', { id });
    expect(changed.body.data.changeUserRole.role).toBe('CLINICIAN');
    expect((await withSession(a, token, '/tenant/public')).status).toBe(401);
  });

  it('only an owner makes owners; the last owner stays', async () => {
    const adminId = await member('boss@example.com', 'admin');
    const res = await signIn('boss@example.com');
    const { token } = sessionCookie(res);
    const refused = await graphqlAs(token, res.body.csrfToken, 'mutation { inviteUser(input: {email: "owner2@example.com", role: OWNER}) { invitationToken } }');
    expect(refused.body.errors[0]).toMatchObject({ message: 'Only an owner can invite an owner', extensions: { code: 'FORBIDDEN' } });
    // The tenant's full key acts for its owner.
    const ownerInvite = await asKey('mutation { inviteUser(input: {email: "owner@example.com", role: OWNER}) { user { id } } }');
    const ownerId = ownerInvite.body.data.inviteUser.user.id;
    const last = await asKey('mutation($id: ID!) { removeUser(id: $id) }', { id: ownerId });
    expect(last.body.errors[0]).toMatchObject({ message: 'The last owner cannot be removed', extensions: { code: 'CONFLICT' } });
    expect(adminId).toBeDefined();
  });

  it('failed sign-ins are limited per account, the right password included once over', async () => {
    await member('guess@example.com', 'analyst');
    for (let i = 0; i < 5; i++) expect((await signIn('guess@example.com', `wrong password ${i}`)).status).toBe(401);
    const blocked = await signIn('guess@example.com');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(blocked.body).toEqual({ detail: 'Too many failed sign-ins; try again later' });
  });

  it('records sign-ins, failed ones, sign-outs and people changes in the audit trail', async () => {
    const { rows } = await db.query("select action, outcome, actor_kind from audit.events where tenant_id = $1 and (action like 'auth.%' or action like 'user.%' or action = 'session.end')", [tenantId]);
    const seen = new Set(rows.map((row) => `${row.action}:${row.outcome}`));
    for (const expected of ['auth.sign_in:success', 'auth.sign_in:failure', 'session.end:success', 'user.invite:success', 'user.accept_invitation:success', 'user.remove:success', 'user.change_role:success']) expect(seen).toContain(expected);
  });
});

describe('automatic logoff', () => {
  let app: InProcessApp;
  afterAll(() => app.close());

  it('a session idle past SESSION_IDLE_SECONDS is over', async () => {
    app = await startInProcessApp({ SESSION_IDLE_SECONDS: '1' });
    const created = await admin('/tenants', { method: 'POST', body: JSON.stringify({ name: 'Idle Clinic' }) }, app.url);
    const headers = { TENANT: created.body.tenant.id, 'API-KEY': created.body.apiKey, 'content-type': 'application/json' };
    const invited = await request(`${app.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: 'mutation { inviteUser(input: {email: "idle@example.com", role: ANALYST}) { invitationToken } }' }) });
    await request(`${app.url}/auth/invitations/accept`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: invited.body.data.inviteUser.invitationToken, password: 'correct horse battery' }) });
    const res = await request(`${app.url}/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tenantId: created.body.tenant.id, email: 'idle@example.com', password: 'correct horse battery' }) });
    const { token } = sessionCookie(res);
    expect((await request(`${app.url}/tenant/public`, { headers: { cookie: `${COOKIE}=${token}` } })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect((await request(`${app.url}/tenant/public`, { headers: { cookie: `${COOKIE}=${token}` } })).status).toBe(401);
  });
});

describe('a second factor (TOTP)', () => {
  let app: InProcessApp;
  afterAll(() => app.close());

  it('a tenant that asks for one lets an unenrolled session only enrol; then every sign-in needs a code', async () => {
    app = await startInProcessApp();
    const created = await admin('/tenants', { method: 'POST', body: JSON.stringify({ name: 'TOTP Clinic' }) }, app.url);
    const tenantId = created.body.tenant.id as string;
    const json = { 'content-type': 'application/json' };
    const asKey = (query: string) => request(`${app.url}/graphql`, { method: 'POST', headers: { TENANT: tenantId, 'API-KEY': created.body.apiKey, ...json }, body: JSON.stringify({ query }) });
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) => request(`${app.url}${path}`, { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify(body) });
    expect((await asKey('mutation { setTwoFactorRequired(required: true) }')).body.data.setTwoFactorRequired).toBe(true);
    const invited = await asKey('mutation { inviteUser(input: {email: "totp@example.com", role: CLINICIAN}) { invitationToken } }');
    await post('/auth/invitations/accept', { token: invited.body.data.inviteUser.invitationToken, password: 'correct horse battery' });
    const credentials = { tenantId, email: 'totp@example.com', password: 'correct horse battery' };

    const first = await post('/auth/sign-in', credentials);
    const { token } = sessionCookie(first);
    const session = { cookie: `${COOKIE}=${token}`, 'x-csrf-token': first.body.csrfToken };
    const refused = await request(`${app.url}/tenant/public`, { headers: session });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/^Two-factor enrolment required/);
    expect((await request(`${app.url}/auth/session`, { headers: session })).body.twoFactorPending).toBe(true);

    const setup = await post('/auth/two-factor/setup', {}, session);
    expect(setup.body.uri).toMatch(/^otpauth:\/\/totp\/Healthcare%20Practice%20Platform:totp%40example\.com\?/);
    const totp = new TOTP({ secret: setup.body.secret, algorithm: 'SHA1', digits: 6, period: 30 });
    const wrong = String((Number(totp.generate()) + 1) % 1_000_000).padStart(6, '0');
    const bad = await post('/auth/two-factor/confirm', { secret: setup.body.secret, code: wrong }, session);
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'code']);
    expect((await post('/auth/two-factor/confirm', { secret: setup.body.secret, code: totp.generate() }, session)).status).toBe(204);
    expect((await request(`${app.url}/tenant/public`, { headers: session })).status).toBe(200);

    const noCode = await post('/auth/sign-in', credentials);
    expect(noCode.status).toBe(401);
    expect(noCode.body.detail).toBe('A two-factor code is required: send it as "code"');
    expect((await post('/auth/sign-in', { ...credentials, code: wrong })).status).toBe(401);
    const code = totp.generate();
    expect((await post('/auth/sign-in', { ...credentials, code })).status).toBe(200);
    // A code is taken once (RFC 6238, section 5.2): the same one again, overheard or replayed, is refused.
    expect((await post('/auth/sign-in', { ...credentials, code })).status).toBe(401);
  });
});

describe("bearer sessions from a tenant's own web origins (CORS)", () => {
  let app: InProcessApp;
  afterAll(() => app.close());

  it('lets a listed origin sign in for a bearer token and call the API with it; other origins, cookies and API keys stay out', async () => {
    app = await startInProcessApp();
    const created = await admin('/tenants', { method: 'POST', body: JSON.stringify({ name: 'CORS Clinic' }) }, app.url);
    const tenantId = created.body.tenant.id as string;
    const json = { 'content-type': 'application/json' };
    const asKey = (query: string) => request(`${app.url}/graphql`, { method: 'POST', headers: { TENANT: tenantId, 'API-KEY': created.body.apiKey, ...json }, body: JSON.stringify({ query }) });
    const bad = await asKey('mutation { setAllowedOrigins(origins: ["https://app.example.com/path"]) }');
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect((await asKey('mutation { setAllowedOrigins(origins: ["HTTPS://app.example.com", "http://localhost:5173"]) }')).body.data.setAllowedOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
    const invited = await asKey('mutation { inviteUser(input: {email: "spa@example.com", role: ANALYST}) { invitationToken } }');
    await request(`${app.url}/auth/invitations/accept`, { method: 'POST', headers: json, body: JSON.stringify({ token: invited.body.data.inviteUser.invitationToken, password: 'correct horse battery' }) });

    const listed = 'https://app.example.com';
    const preflight = await request(`${app.url}/graphql`, { method: 'OPTIONS', headers: { origin: listed, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(listed);
    expect(preflight.headers.get('access-control-allow-headers')).not.toMatch(/api-key/i);
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    const stranger = await request(`${app.url}/graphql`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();

    const signedIn = await request(`${app.url}/auth/sign-in`, { method: 'POST', headers: { ...json, origin: listed }, body: JSON.stringify({ tenantId, email: 'spa@example.com', password: 'correct horse battery', bearer: true }) });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.getSetCookie()).toEqual([]);
    expect(signedIn.headers.get('access-control-allow-origin')).toBe(listed);
    const bearer = { authorization: `Bearer ${signedIn.body.token}` };
    // No CSRF token with a bearer: no browser attaches it by itself.
    const ok = await request(`${app.url}/graphql`, { method: 'POST', headers: { ...json, ...bearer, origin: listed }, body: JSON.stringify({ query: '{ dashboards { totalCount } }' }) });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(listed);
    const elsewhere = await request(`${app.url}/graphql`, { method: 'POST', headers: { ...json, ...bearer, origin: 'https://evil.example' }, body: JSON.stringify({ query: '{ dashboards { totalCount } }' }) });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body).toEqual({ errors: [{ message: 'This origin is not one the tenant lets call the API', extensions: { code: 'FORBIDDEN' } }] });
    // Server-to-server (no Origin) the bearer works too; signing out ends it.
    expect((await request(`${app.url}/tenant/public`, { headers: bearer })).status).toBe(200);
    expect((await request(`${app.url}/auth/sign-out`, { method: 'POST', headers: bearer })).status).toBe(204);
    expect((await request(`${app.url}/tenant/public`, { headers: bearer })).status).toBe(401);
  });
});

describe('invitation e-mails', () => {
  let app: InProcessApp;
  let dataDir: string;
  afterAll(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("e-mail the person a link to the console's page that accepts the invitation; the token in the link works once", async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'hpp-invite-'));
    app = await startInProcessApp({ DATA_DIR: dataDir, PUBLIC_URL: 'https://clinic.example' });
    const created = await admin('/tenants', { method: 'POST', body: JSON.stringify({ name: 'Mail Clinic' }) }, app.url);
    const headers = { TENANT: created.body.tenant.id, 'API-KEY': created.body.apiKey, 'content-type': 'application/json' };
    const invited = await request(`${app.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: 'mutation { inviteUser(input: {email: "new.person@example.com", role: CLINICIAN}) { invitationSent user { id } } }' }) });
    expect(invited.body.data.inviteUser.invitationSent).toBe(true);

    // The message as SMTP would carry it, kept as an .eml file without SMTP_URL (quoted-printable undone).
    const files = readdirSync(join(dataDir, 'mail'));
    expect(files).toHaveLength(1);
    const message = readFileSync(join(dataDir, 'mail', files[0]), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    expect(message).toMatch(/^To: new\.person@example\.com$/m);
    expect(message).toMatch(/^Subject: You are invited to Mail Clinic$/m);
    const link = /https:\/\/clinic\.example\/console\/#\/accept-invitation\?token=([A-Za-z0-9_-]{43})/.exec(message);
    expect(link).not.toBeNull();
    const accept = (password: string) => request(`${app.url}/auth/invitations/accept`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: link![1], password }) });
    expect((await accept('correct horse battery')).status).toBe(200);
    expect((await accept('correct horse battery')).status).toBe(404);
  });
});
