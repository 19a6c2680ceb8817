import { Client } from 'pg';
import { RequestAudit } from '../../../platform/audit/request-audit';
import { appendEntries } from '../../../platform/audit/audit-store';
import { auditEntry } from '../../../platform/audit/audit-entry';
import { TenantScope } from '../../../platform/tenant-scope';
import { PatientService } from '../../../subgraphs/tenant/services/patient.service';
import type { AuditRow } from '../../utils/audit-records';
import { admin, createTestTenant, type HttpResult, type TestTenant } from '../../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../../utils/in-process';

type Row = AuditRow;

/**
 * The audit trail (docs/audit.md) through the real app and PostgreSQL: what reads and changes
 * record, that records cannot be changed or removed, that tampering is found, and that a change
 * and its record commit together or not at all.
 */
describe('audit trail', () => {
  let server: InProcessApp;
  let db: Client;

  beforeAll(async () => {
    server = await startInProcessApp();
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await server.close();
  });

  const tenantSubgraph = () => server.platform.subgraphs!.find((subgraph) => subgraph.name === 'tenant')!;
  const records = async (tenantId: string): Promise<Row[]> => {
    await tenantSubgraph().auditReads.flush();
    return (await db.query('select seq::text, action, resource_type, resource_ids, actor_kind, actor_id, outcome, request_id, client_address from audit.events where tenant_id = $1 order by events.seq', [tenantId])).rows;
  };
  const verify = async (tenantId: string) => (await admin(`/tenants/${tenantId}/audit-verification`, {}, server.url)).body;
  const keyIdOf = async (tenant: TestTenant) => (await admin(`/tenants/${tenant.tenantId}/api-keys`, {}, server.url)).body[0].id as string;
  const createPatient = async (tenant: TestTenant, firstName: string): Promise<{ id: string; res: HttpResult }> => {
    const res = await tenant.graphql('mutation($input: CreatePatientInput!) { createPatient(input: $input) { id } }', { input: { firstName, lastName: 'Audit', email: `${firstName.toLowerCase()}@example.com` } });
    expect(res.body.errors).toBeUndefined();
    return { id: res.body.data.createPatient.id, res };
  };

  it("records the operator's changes, a write in its own transaction and each PHI read with the ids read, actor, request and address", async () => {
    const tenant = await createTestTenant('Audit Clinic', server.url);
    const keyId = await keyIdOf(tenant);
    const ann = await createPatient(tenant, 'Ann');
    const bob = await createPatient(tenant, 'Bob');
    const list = await tenant.graphql('{ patients(first: 10) { nodes { id } } }');
    const one = await tenant.graphql('query($id: ID!) { patient(id: $id) { firstName } }', { id: bob.id });
    const none = await tenant.graphql('{ tenant { id } }');
    expect(none.status).toBe(200);

    const rows = await records(tenant.tenantId);
    expect(rows.map((row) => [row.seq, row.action, row.actor_kind])).toEqual([
      ['1', 'tenant.create', 'operator'],
      ['2', 'api_key.issue', 'operator'],
      ['3', 'patient.create', 'key'],
      ['4', 'patient.create', 'key'],
      ['5', 'patient.read', 'key'],
      ['6', 'patient.read', 'key'],
    ]);
    expect(rows[2]).toMatchObject({ resource_type: 'patient', resource_ids: [ann.id], actor_id: keyId, outcome: 'success', request_id: ann.res.headers.get('x-request-id'), client_address: '127.0.0.1' });
    expect(rows[4]).toMatchObject({ resource_ids: expect.arrayContaining([ann.id, bob.id]), request_id: list.headers.get('x-request-id') });
    expect(rows[4].resource_ids).toHaveLength(2);
    expect(rows[5]).toMatchObject({ resource_ids: [bob.id], request_id: one.headers.get('x-request-id') });
    expect(await verify(tenant.tenantId)).toMatchObject({ tenantId: tenant.tenantId, records: 6, problems: [], head: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('refuses to change or remove a record, even for the superuser the app connects as', async () => {
    const tenant = await createTestTenant('Append-only Clinic', server.url);
    await expect(db.query("update audit.events set action = 'nothing' where tenant_id = $1", [tenant.tenantId])).rejects.toThrow(/append-only/);
    await expect(db.query('delete from audit.events where tenant_id = $1', [tenant.tenantId])).rejects.toThrow(/append-only/);
    await expect(db.query('truncate audit.events')).rejects.toThrow(/append-only/);
    expect(await records(tenant.tenantId)).toHaveLength(2);
  });

  it('finds an altered record and a removed one (triggers bypassed as a saboteur would)', async () => {
    const tenant = await createTestTenant('Tamper Clinic', server.url);
    const ann = await createPatient(tenant, 'Ann');
    await createPatient(tenant, 'Cid');
    await tenant.graphql('{ patients { nodes { id } } }');
    await records(tenant.tenantId);
    expect((await verify(tenant.tenantId)).problems).toEqual([]);

    const saboteur = new Client({ connectionString: process.env.DATABASE_URL });
    await saboteur.connect();
    try {
      await saboteur.query('set session_replication_role = replica');
      await saboteur.query("update audit.events set resource_ids = '{}' where tenant_id = $1 and seq = 5", [tenant.tenantId]);
      expect((await verify(tenant.tenantId)).problems).toEqual([{ seq: '5', problem: 'its fields do not match its hash: altered' }]);
      await saboteur.query('delete from audit.events where tenant_id = $1 and seq = 3', [tenant.tenantId]);
    } finally {
      await saboteur.end();
    }
    const verdict = await verify(tenant.tenantId);
    expect(verdict.problems).toEqual([
      { seq: '4', problem: 'expected record 3: 1 missing before it' },
      { seq: '4', problem: "does not name its predecessor's hash" },
      { seq: '5', problem: 'its fields do not match its hash: altered' },
    ]);
    expect(ann.id).toBeDefined();
  });

  it('a change whose record cannot be written leaves neither', async () => {
    const tenant = await createTestTenant('Atomic Clinic', server.url);
    const em = tenantSubgraph().orm.em.fork() as never;
    // A record the database refuses (no actor kind): the failure comes after the patient's insert, in its transaction.
    const broken = new RequestAudit({ tenantId: tenant.tenantId, actor: { kind: null as never, id: null }, requestId: 'atomic', clientAddress: null }, null);
    const service = new PatientService(em, TenantScope.ofStoredRow(tenant.tenantId), broken);
    await expect(service.create({ firstName: 'Eve', lastName: 'Atomic', email: 'eve@example.com' } as never)).rejects.toThrow(/actor_kind/);
    expect((await db.query('select count(*)::int as n from tenant.patients where tenant_id = $1', [tenant.tenantId])).rows[0].n).toBe(0);
    expect((await records(tenant.tenantId)).map((row) => row.action)).toEqual(['tenant.create', 'api_key.issue']);
  });

  it('retention removes a prefix of the chain past the cutoff, leaves an anchor, and the chain verifies and goes on from it', async () => {
    const tenant = await createTestTenant('Retention Clinic', server.url);
    const origin = { tenantId: tenant.tenantId, actor: { kind: 'system' as const, id: null }, requestId: null, clientAddress: null };
    const old = (days: number) => ({ ...auditEntry(origin, 'patient.read', 'patient', ['x']), occurredAt: new Date(Date.now() - days * 86_400_000) });
    await appendEntries((sql, params) => tenantSubgraph().orm.em.getConnection().execute(sql, params), [old(3000), old(2500)]);
    expect((await records(tenant.tenantId)).map((row) => row.seq)).toEqual(['1', '2', '3', '4']);
    await expect(db.query("select audit.purge(now() - interval '10 days')")).rejects.toThrow(/kept at least 365 days/);

    // Records 3 and 4 are old; the two before them (the tenant's creation, just now) go with them: a purge removes a prefix.
    await db.query("select audit.purge(now() - interval '2000 days')");
    expect(await records(tenant.tenantId)).toEqual([]);
    expect((await db.query('select through_seq::text from audit.anchors where tenant_id = $1', [tenant.tenantId])).rows).toEqual([{ through_seq: '4' }]);
    await expect(db.query('delete from audit.anchors where tenant_id = $1', [tenant.tenantId])).rejects.toThrow(/audit.anchors is append-only/);
    expect(await verify(tenant.tenantId)).toMatchObject({ records: 0, problems: [], head: expect.stringMatching(/^[0-9a-f]{64}$/) });

    await createPatient(tenant, 'Fay');
    expect((await records(tenant.tenantId)).map((row) => [row.seq, row.action])).toEqual([['5', 'patient.create']]);
    expect(await verify(tenant.tenantId)).toMatchObject({ records: 1, problems: [] });
  });
});
