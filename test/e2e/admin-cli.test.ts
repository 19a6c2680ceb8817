import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { admin as adminApi, baseUrl, createTestTenant, request } from '../utils/e2e';
import { issueCard, mailsMentioning, send } from '../subgraphs/billing/rest-kit';
import { eventually } from '../utils/eventually';

const run = promisify(execFile);
const CLI = join(__dirname, '../../dist/gateway/admin/cli.js');

/** Runs `npm run admin -- ...`'s entry point against the test database. */
async function admin(...args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [CLI, ...args], { env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL } });
  return JSON.parse(stdout);
}

describe(`the admin CLI reaches the same database as the server (${process.env.E2E_MODE} mode)`, () => {
  // Five CLI runs, each booting the platform (its migration check included): over 30 s on a loaded CI machine.
  it('creates a tenant whose key the running server accepts, issues and lists keys', async () => {
    const created = await admin('create-tenant', 'CLI Clinic');
    expect(created.apiKey).toMatch(/^hpp_/);
    const headers = { TENANT: created.tenant.id, 'API-KEY': created.apiKey };
    const res = await request(`${baseUrl()}/tenant/public`, { headers });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('CLI Clinic');

    const issued = await admin('issue-key', created.tenant.id, '--name', 'reporting');
    expect((await request(`${baseUrl()}/tenant/public`, { headers: { ...headers, 'API-KEY': issued.apiKey } })).status).toBe(200);
    const keys = await admin('list-keys', created.tenant.id);
    expect(keys.map((k: { name: string }) => k.name).sort()).toEqual(['initial', 'reporting']);
    expect(JSON.stringify(keys)).not.toContain(issued.apiKey);

    await admin('revoke-key', issued.id);
    const after = await admin('list-keys', created.tenant.id);
    expect(after.find((k: { id: string }) => k.id === issued.id).revokedAt).not.toBeNull();
  }, 90_000);

  it('issues a test key (--test) the running server takes for the tenant\'s test data', async () => {
    const tenant = await createTestTenant('CLI Test Mode Clinic');
    const issued = await admin('issue-key', tenant.tenantId, '--name', 'ci', '--test');
    expect(issued).toMatchObject({ tenantId: tenant.tenantId, livemode: false, apiKey: expect.stringMatching(/^hpp_test_/) });
    const res = await request(`${baseUrl()}/graphql`, {
      method: 'POST',
      headers: { TENANT: tenant.tenantId, 'API-KEY': issued.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ tenant { id livemode } }' }),
    });
    expect(res.body.data.tenant).toEqual({ id: issued.dataTenantId, livemode: false });
    const keys = await admin('list-keys', tenant.tenantId);
    expect(keys.map((k: { name: string; livemode: boolean }) => [k.name, k.livemode])).toEqual([['ci', false], ['initial', true]]);
    // People belong to the live tenant: the twin's id is refused, saying which tenant to use.
    const refused = await run(process.execPath, [CLI, 'invite-user', issued.dataTenantId, 'twin.person@example.com', '--role', 'analyst'], { env: process.env }).catch((error) => error);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`is the test twin of ${tenant.tenantId}: invite people to the live tenant`);
  }, 60_000);

  it('invites a person who then signs in on the running server, changes their role and removes them, ending their session', async () => {
    const tenant = await createTestTenant('CLI People Clinic');
    const invited = await admin('invite-user', tenant.tenantId, 'cli.person@example.com', '--role', 'analyst', '--name', 'Cli Person');
    expect(invited.user).toMatchObject({ email: 'cli.person@example.com', role: 'analyst', status: 'invited' });
    const json = { 'content-type': 'application/json' };
    expect((await request(`${baseUrl()}/auth/invitations/accept`, { method: 'POST', headers: json, body: JSON.stringify({ token: invited.invitationToken, password: 'correct horse battery' }) })).status).toBe(200);
    const signedIn = await request(`${baseUrl()}/auth/sign-in`, { method: 'POST', headers: json, body: JSON.stringify({ tenantId: tenant.tenantId, email: 'cli.person@example.com', password: 'correct horse battery' }) });
    const cookie = signedIn.headers.getSetCookie()[0].split(';')[0];
    expect((await request(`${baseUrl()}/tenant/public`, { headers: { cookie } })).status).toBe(200);

    expect((await admin('list-users', tenant.tenantId)).map((user: { email: string; status: string }) => [user.email, user.status])).toEqual([['cli.person@example.com', 'active']]);
    expect((await admin('set-role', tenant.tenantId, invited.user.id, '--role', 'billing')).role).toBe('billing');
    expect((await request(`${baseUrl()}/tenant/public`, { headers: { cookie } })).status).toBe(401);
    expect((await admin('remove-user', tenant.tenantId, invited.user.id)).id).toBe(invited.user.id);
    expect(await admin('list-users', tenant.tenantId)).toEqual([]);
  }, 90_000);

  it('a key the CLI revokes is refused by the running server at once, though the server had it cached', async () => {
    const tenant = await createTestTenant('CLI Revocation Clinic');
    const issued = await adminApi(`/tenants/${tenant.tenantId}/api-keys`, { method: 'POST', body: '{}' });
    expect(issued.status).toBe(201);
    const headers = { TENANT: tenant.tenantId, 'API-KEY': issued.body.apiKey };
    // Verified once, so the server's key cache holds it for 10 s; only the NOTIFY of the revocation can end that sooner.
    expect((await request(`${baseUrl()}/tenant/public`, { headers })).status).toBe(200);

    expect(await admin('revoke-key', issued.body.id)).toMatchObject({ revoked: issued.body.id });
    const res = await request(`${baseUrl()}/tenant/public`, { headers });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Invalid API key' });
    expect((await tenant.get('/tenant/public')).status).toBe(200);
  });

  it('runs no background work: a gift card e-mail left unqueued stays for the servers\' sender, not taken by a CLI command', async () => {
    const tenant = await createTestTenant('CLI Background Clinic');
    const card = await issueCard(tenant, { initialValueCents: 1000, recipientPatientEmail: 'cli@example.com' });
    expect((await send(tenant, 'POST', `/billing/gift-cards/issued/${card.id}/activate`, {})).status).toBe(200);
    await eventually(() => mailsMentioning(card.code).length > 0);
    const db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    try {
      // The state the sender adopts when it starts: an e-mail not yet sent and on no queue (a row
      // from before the job queue). Due tomorrow, so nothing would be sent today either way.
      const where = `gift_card_id = $1`;
      await db.query(`update billing.notifications set sent_at = null, job_id = null, next_attempt_at = now() + interval '1 day' where ${where}`, [card.id]);
      // The sender is on, as on an operator's machine (jest's own environment turns it off).
      await run(process.execPath, [CLI, 'list-keys', tenant.tenantId], { env: { ...process.env, NOTIFICATION_SENDER: 'on' } });
      const { rows } = await db.query<{ job_id: string | null }>(`select job_id from billing.notifications where ${where}`, [card.id]);
      expect(rows).toEqual([{ job_id: null }]);
      // Put back as sent, so no later start of a server on this database picks it up.
      await db.query(`update billing.notifications set sent_at = now() where ${where}`, [card.id]);
    } finally {
      await db.end();
    }
  }, 60_000);

  it('explains its usage and fails on an unknown tenant', async () => {
    await expect(run(process.execPath, [CLI])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('Usage: npm run admin') });
    await expect(run(process.execPath, [CLI, 'issue-key', '00000000-0000-0000-0000-000000000000'], { env: process.env })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Tenant not found'),
    });
  });
});
