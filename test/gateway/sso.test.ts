import { Client } from 'pg';
import { freePort } from '../../gateway/database/free-port';
import { admin, request } from '../utils/e2e';
import { signInAtProvider, startIdentityProvider, type IdentityProvider } from '../utils/identity-provider';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';

const COOKIE = '__Host-hpp_session';
/** The cookie binding a sign-in to the browser that began it. */
const BINDING = '__Host-hpp_sso';

/** A request the app answers with a redirect, not followed: a browser's first step. */
const visit = (url: string, headers: Record<string, string> = {}) => fetch(url, { redirect: 'manual', headers });

/** The session token a response sets, or null. */
const sessionTokenOf = (res: Response): string | null =>
  res.headers.getSetCookie().find((line) => line.startsWith(`${COOKIE}=`))?.slice(COOKIE.length + 1).split(';')[0] ?? null;

/**
 * Single sign-on through OpenID Connect (docs/access.md, Single sign-on) against a real provider,
 * oidc-provider, in this process: the tenant configures it through the graph, a person goes to
 * /auth/sso/start, signs in at the provider's own pages, comes back to /auth/sso/callback and has
 * a session like a password sign-in's. The app listens on a port chosen first, so that its
 * PUBLIC_URL (the redirect URI the provider knows) is its own.
 */
describe('single sign-on through OpenID Connect', () => {
  let app: InProcessApp;
  let idp: IdentityProvider;
  let db: Client;
  let appUrl: string;
  let tenantId: string;
  let fullKey: string;

  const graphql = (query: string, variables?: unknown, tenant = tenantId, key = fullKey) =>
    request(`${appUrl}/graphql`, { method: 'POST', headers: { TENANT: tenant, 'API-KEY': key, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  const configure = (provider: IdentityProvider, tenant = tenantId, key = fullKey) =>
    graphql('mutation($input: ConfigureSingleSignOnInput!) { configureSingleSignOn(input: $input) }', { input: { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret } }, tenant, key);
  const invite = async (email: string, role = 'clinician', tenant = tenantId, key = fullKey): Promise<string> => {
    const invited = await graphql('mutation($input: InviteUserInput!) { inviteUser(input: $input) { user { id } } }', { input: { email, role: role.toUpperCase() } }, tenant, key);
    expect(invited.body.errors).toBeUndefined();
    return invited.body.data.inviteUser.user.id;
  };
  /** The whole round trip for a login at the provider: the callback's answer, the callback URL and the browser's cookie binding it (to replay). */
  async function signInThroughProvider(login: string, tenant = tenantId): Promise<{ res: Response; callback: string; binding: string }> {
    const start = await visit(`${appUrl}/auth/sso/start?tenant=${tenant}`);
    expect(start.status).toBe(302);
    const binding = start.headers.getSetCookie().find((line) => line.startsWith(`${BINDING}=`))!.split(';')[0];
    const callback = await signInAtProvider(start.headers.get('location')!, login, appUrl);
    return { res: await visit(callback, { cookie: binding }), callback, binding };
  }

  beforeAll(async () => {
    const port = await freePort();
    appUrl = `http://127.0.0.1:${port}`;
    idp = await startIdentityProvider(`${appUrl}/auth/sso/callback`, {
      idTokenClaims: true,
      claimsOf: (login) => ({ email: login, email_verified: !login.startsWith('unverified') }),
    });
    // The provider runs on this machine: allowed only with SSO_ALLOW_INTERNAL=1 (development and tests).
    app = await startInProcessApp({ PORT: String(port), PUBLIC_URL: appUrl, SSO_ALLOW_INTERNAL: '1' });
    const created = await admin('/tenants', { method: 'POST', body: JSON.stringify({ name: 'SSO Clinic' }) }, appUrl);
    tenantId = created.body.tenant.id;
    fullKey = created.body.apiKey;
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await app?.close();
    await idp?.close();
  });

  it('is configured through the graph with an https issuer (http only on the loopback); the secret is never read back', async () => {
    const plain = await graphql('mutation { configureSingleSignOn(input: {issuer: "http://idp.example.com", clientId: "c", clientSecret: "s"}) }');
    expect(plain.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const query = await graphql('mutation { configureSingleSignOn(input: {issuer: "https://idp.example.com/?tenant=1", clientId: "c", clientSecret: "s"}) }');
    expect(query.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    // Not configured yet: nothing to start.
    const none = await visit(`${appUrl}/auth/sso/start?tenant=${tenantId}`);
    expect(none.status).toBe(404);
    expect(await none.json()).toEqual({ detail: 'Single sign-on is not configured for this tenant' });

    const configured = await configure(idp);
    expect(configured.body).toEqual({ data: { configureSingleSignOn: true } });
    const { rows } = await db.query('select oidc_issuer, oidc_client_id from tenant.tenants where id = $1', [tenantId]);
    expect(rows[0]).toEqual({ oidc_issuer: idp.issuer, oidc_client_id: idp.clientId });
    expect(JSON.stringify((await graphql('{ tenant { __typename } }')).body)).not.toContain(idp.clientSecret);
  });

  it('sends a person to the provider with PKCE (S256), a state and a nonce; the state is kept only hashed', async () => {
    const start = await visit(`${appUrl}/auth/sso/start?tenant=${tenantId}`);
    expect(start.status).toBe(302);
    expect(start.headers.get('cache-control')).toBe('no-store');
    // Counted against the client address's budget, as every anonymous request is.
    expect(start.headers.get('ratelimit-policy')).toBeTruthy();
    const target = new URL(start.headers.get('location')!);
    expect(`${target.origin}${target.pathname}`).toBe(`${idp.issuer}/auth`);
    const params = Object.fromEntries(target.searchParams);
    expect(params).toMatchObject({ client_id: idp.clientId, response_type: 'code', scope: 'openid email', redirect_uri: `${appUrl}/auth/sso/callback`, code_challenge_method: 'S256' });
    for (const name of ['state', 'nonce', 'code_challenge']) expect(params[name]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The browser that began it carries its state (SameSite=Lax: the way back is a cross-site navigation).
    const binding = start.headers.getSetCookie().find((line) => line.startsWith(`${BINDING}=`))!;
    expect(binding).toMatch(new RegExp(`^${BINDING}=${params.state}; Max-Age=600; Path=/; HttpOnly; Secure; SameSite=Lax$`));
    const { rows } = await db.query('select encode(state_hash, $2) as hash from tenant.oidc_logins where tenant_id = $1', [tenantId, 'hex']);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((row) => row.hash)).not.toContain(Buffer.from(params.state).toString('hex'));
  });

  it('an invited person signs in at the provider and comes back with a session that works; the state cannot be used again', async () => {
    const userId = await invite('nurse@example.com');
    const { res, callback, binding } = await signInThroughProvider('Nurse@Example.com');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/console/');
    const token = sessionTokenOf(res);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const line = res.headers.getSetCookie().find((value) => value.startsWith(`${COOKIE}=`))!;
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; Secure/);
    expect(line).toMatch(/; SameSite=Strict/);

    const cookie = { cookie: `${COOKIE}=${token}` };
    expect((await request(`${appUrl}/tenant/public`, { headers: cookie })).status).toBe(200);
    const session = await request(`${appUrl}/auth/session`, { headers: cookie });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ tenantId, user: { id: userId, role: 'clinician' } });
    // Their first single sign-on made them active.
    const people = await graphql('{ users { nodes { email status } } }');
    expect(people.body.data.users.nodes).toContainEqual({ email: 'nurse@example.com', status: 'ACTIVE' });

    const replay = await visit(callback, { cookie: binding });
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({ detail: 'This sign-in is unknown, used or expired; start it again' });
    expect(sessionTokenOf(replay)).toBeNull();
    // A state never issued, or none, is refused alike.
    expect((await visit(`${appUrl}/auth/sso/callback?code=x&state=${'A'.repeat(43)}`, { cookie: `${BINDING}=${'A'.repeat(43)}` })).status).toBe(401);
    expect((await visit(`${appUrl}/auth/sso/callback?code=x`)).status).toBe(422);
  });

  it("a callback link opened in a browser that did not begin the sign-in is refused, and the sign-in stays the other browser's (login CSRF)", async () => {
    await invite('mallory@example.com');
    const start = await visit(`${appUrl}/auth/sso/start?tenant=${tenantId}`);
    const binding = start.headers.getSetCookie().find((line) => line.startsWith(`${BINDING}=`))!.split(';')[0];
    // Someone signs in as themselves, then hands the callback link to another person.
    const callback = await signInAtProvider(start.headers.get('location')!, 'mallory@example.com', appUrl);
    const victim = await visit(callback);
    expect(victim.status).toBe(401);
    expect(await victim.json()).toEqual({ detail: 'This sign-in was not begun in this browser; start it again' });
    expect(sessionTokenOf(victim)).toBeNull();
    expect((await visit(callback, { cookie: `${BINDING}=${'B'.repeat(43)}` })).status).toBe(401);
    const own = await visit(callback, { cookie: binding });
    expect(own.status).toBe(302);
    // The binding is forgotten once used.
    expect(own.headers.getSetCookie().find((line) => line.startsWith(`${BINDING}=`))).toMatch(/Expires=Thu, 01 Jan 1970/);
  });

  it('an e-mail no one of the tenant has is 403, with no session; so is one the provider has not verified', async () => {
    const { res } = await signInThroughProvider('stranger@example.com');
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ detail: 'No account for this e-mail in this tenant' });
    expect(sessionTokenOf(res)).toBeNull();

    await invite('unverified@example.com');
    const unverified = await signInThroughProvider('unverified@example.com');
    expect(unverified.res.status).toBe(403);
    expect(await unverified.res.json()).toEqual({ detail: 'The identity provider has not verified this e-mail address' });
  });

  it("takes the e-mail from UserInfo when the provider keeps it out of the ID token (OpenID Connect Core 5.4)", async () => {
    const strict = await startIdentityProvider(`${appUrl}/auth/sso/callback`);
    try {
      const other = await admin('/tenants', { method: 'POST', body: JSON.stringify({ name: 'Strict SSO Clinic' }) }, appUrl);
      const [otherTenant, otherKey] = [other.body.tenant.id as string, other.body.apiKey as string];
      expect((await configure(strict, otherTenant, otherKey)).body.data.configureSingleSignOn).toBe(true);
      const userId = await invite('doctor@example.com', 'analyst', otherTenant, otherKey);
      const { res } = await signInThroughProvider('doctor@example.com', otherTenant);
      expect(res.status).toBe(302);
      const session = await request(`${appUrl}/auth/session`, { headers: { cookie: `${COOKIE}=${sessionTokenOf(res)}` } });
      expect(session.body).toMatchObject({ tenantId: otherTenant, user: { id: userId, role: 'analyst' } });
      // The person is the other tenant's: this tenant's provider cannot sign them in here.
      expect((await signInThroughProvider('doctor@example.com')).res.status).toBe(403);
    } finally {
      await strict.close();
    }
  });

  it('records configuration, sign-ins and refusals in the audit trail', async () => {
    const { rows } = await db.query("select action, outcome, actor_kind, actor_id, resource_ids from audit.events where tenant_id = $1 and (action like 'auth.%' or action like 'tenant.%sso' or action = 'user.accept_invitation')", [tenantId]);
    const seen = new Set(rows.map((row) => `${row.action}:${row.outcome}`));
    for (const expected of ['tenant.configure_sso:success', 'user.accept_invitation:success', 'auth.sign_in:success', 'auth.sign_in:failure']) expect(seen).toContain(expected);
    const success = rows.find((row) => row.action === 'auth.sign_in' && row.outcome === 'success');
    expect(success).toMatchObject({ actor_kind: 'user' });
    expect(success.resource_ids).toEqual([success.actor_id]);
  });

  it('is turned off with disableSingleSignOn; a HEAD is 405; an unknown tenant looks like one without', async () => {
    expect((await visit(`${appUrl}/auth/sso/start?tenant=00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await fetch(`${appUrl}/auth/sso/start?tenant=${tenantId}`, { method: 'HEAD', redirect: 'manual' })).status).toBe(405);
    expect((await graphql('mutation { disableSingleSignOn }')).body.data.disableSingleSignOn).toBe(true);
    expect((await visit(`${appUrl}/auth/sso/start?tenant=${tenantId}`)).status).toBe(404);
    const { rows } = await db.query('select oidc_issuer, oidc_client_id, oidc_client_secret from tenant.tenants where id = $1', [tenantId]);
    expect(rows[0]).toEqual({ oidc_issuer: null, oidc_client_id: null, oidc_client_secret: null });
    const { rows: audit } = await db.query("select 1 from audit.events where tenant_id = $1 and action = 'tenant.disable_sso'", [tenantId]);
    expect(audit).toHaveLength(1);
  });
});

describe('identity providers on internal addresses', () => {
  it('are not reached without SSO_ALLOW_INTERNAL: the edge does not probe its own network for a tenant admin', async () => {
    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    const idp = await startIdentityProvider(`${appUrl}/auth/sso/callback`, { idTokenClaims: true, claimsOf: (login) => ({ email: login, email_verified: true }) });
    const app = await startInProcessApp({ PORT: String(port), PUBLIC_URL: appUrl });
    try {
      const created = await admin('/tenants', { method: 'POST', body: JSON.stringify({ name: 'SSRF Clinic' }) }, appUrl);
      const headers = { TENANT: created.body.tenant.id, 'API-KEY': created.body.apiKey, 'content-type': 'application/json' };
      const configure = await fetch(`${appUrl}/graphql`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query: 'mutation($i: ConfigureSingleSignOnInput!) { configureSingleSignOn(input: $i) }', variables: { i: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret } } }),
      });
      expect(((await configure.json()) as { errors?: unknown }).errors).toBeUndefined();
      const start = await fetch(`${appUrl}/auth/sso/start?tenant=${created.body.tenant.id}`, { redirect: 'manual' });
      expect(start.status).toBe(503);
      expect(await start.json()).toEqual({ detail: "The tenant's identity provider could not be reached; try again shortly" });
    } finally {
      await app.close();
      await idp.close();
    }
  });
});

