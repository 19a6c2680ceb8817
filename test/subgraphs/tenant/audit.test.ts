import { Client } from 'pg';
import { TenantScope } from '../../../platform/tenant-scope';
import { LocationService } from '../../../subgraphs/tenant/services/location.service';
import { auditRecords, changeBy, refusedAudit, runAudited, type AuditedRun } from '../../utils/audit-records';
import { makeImage } from './image-fixtures';
import { startTenantKit, type TenantSubgraphKit } from './subgraph-kit';

const LOCATION = 'mutation($i: CreateLocationInput!) { createLocation(input: $i) { id } }';
const PROVIDER = 'mutation($i: CreateProviderInput!) { createProvider(input: $i) { id } }';
const TENANT = 'mutation($i: UpdateTenantInput!) { updateTenant(input: $i) { id } }';
const LOGO = 'mutation($f: UploadedFileInput!) { setTenantLogo(kind: LOGO, file: $f) }';
const WEBHOOK = 'mutation($i: WebhookConfigInput!) { updateWebhookConfig(input: $i) { id } }';
const TEST_EVENT = 'mutation { sendTestWebhookEvent { id } }';
const REDELIVER = 'mutation($id: ID!) { redeliverWebhookEvent(id: $id) { id } }';

/**
 * The tenant subgraph's changes in the audit trail (docs/audit.md): each mutation writes one
 * record in its own transaction, naming what it changed, the key, the request and the address;
 * a refused change writes none, and a change whose record is refused is undone.
 */
describe('tenant subgraph: audit records of changes (real PostgreSQL)', () => {
  let kit: TenantSubgraphKit;
  let db: Client;

  beforeAll(async () => {
    kit = await startTenantKit();
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await kit.close();
  });

  const run = async (tenantId: string, query: string, variables?: Record<string, unknown>): Promise<AuditedRun> => {
    const result = await runAudited(kit.subgraph, tenantId, query, variables);
    expect(result.errors).toBeUndefined();
    return result;
  };
  const records = (tenantId: string) => auditRecords(db, tenantId, kit.subgraph);

  it('records every mutation with the ids it changed, the key, the request and the address', async () => {
    const tenant = await kit.tenant('Audit Directory');
    const location = await run(tenant, LOCATION, { i: { name: 'Harbor', addressLineOne: '1 Main St', city: 'Portland' } });
    const locationId = location.data.createLocation.id;
    const provider = await run(tenant, PROVIDER, { i: { firstName: 'Maya', lastName: 'Okafor', locationIds: [locationId] } });
    const updated = await run(tenant, TENANT, { i: { name: 'Audit Directory Renamed' } });
    const logo = await run(tenant, LOGO, { f: { filename: 'logo.png', contentType: 'image/png', base64: (await makeImage('png')).toString('base64') } });
    const webhook = await run(tenant, WEBHOOK, { i: { url: 'https://hooks.example.com/in' } });
    const test = await run(tenant, TEST_EVENT);
    const deliveryId = test.data.sendTestWebhookEvent.id;
    const redelivered = await run(tenant, REDELIVER, { id: deliveryId.toUpperCase() });

    const assetId = (await db.query('select logo_asset_id::text as id from tenant.tenants where id = $1', [tenant])).rows[0].id;
    const configId = (await db.query('select id::text from tenant.webhook_configs where tenant_id = $1', [tenant])).rows[0].id;
    expect(await records(tenant)).toMatchObject([
      changeBy(location, 'location.create', 'location', [locationId]),
      changeBy(provider, 'provider.create', 'provider', [provider.data.createProvider.id]),
      changeBy(updated, 'tenant.update', 'tenant', [tenant]),
      changeBy(logo, 'tenant_logo.set', 'tenant_logo', [assetId]),
      changeBy(webhook, 'webhook_config.update', 'webhook_config', [configId]),
      changeBy(test, 'webhook_event.send_test', 'webhook_event', [deliveryId]),
      changeBy(redelivered, 'webhook_event.redeliver', 'webhook_event', [deliveryId]),
    ]);
  });

  it('reads of the directory and the configuration record nothing: no PHI', async () => {
    const tenant = await kit.tenant('Audit Reads');
    await run(tenant, LOCATION, { i: { name: 'Uptown', addressLineOne: '2 Main St', city: 'Portland' } });
    await run(tenant, '{ locations { nodes { id } } providers { nodes { id } } tenant { id } webhookConfig { url } webhookDeliveries { totalCount } }');
    expect((await records(tenant)).map((row) => row.action)).toEqual(['location.create']);
  });

  it('a refused change records nothing, and a change whose record is refused is undone with it', async () => {
    const tenant = await kit.tenant('Audit Refusals');
    const invalid = await runAudited(kit.subgraph, tenant, LOCATION, { i: { name: '', addressLineOne: '1 Main St', city: 'Portland' } });
    expect(invalid.errors).toBeDefined();
    const missing = await runAudited(kit.subgraph, tenant, REDELIVER, { id: '00000000-0000-4000-8000-000000000000' });
    expect(missing.errors?.[0].extensions?.code ?? (missing.errors?.[0].originalError as { code?: string })?.code).toBe('NOT_FOUND');
    const noEndpoint = await runAudited(kit.subgraph, tenant, TEST_EVENT);
    expect(noEndpoint.errors).toBeDefined();

    const service = new LocationService(kit.subgraph.orm.em.fork() as never, TenantScope.ofStoredRow(tenant), refusedAudit(tenant));
    await expect(service.create({ name: 'Never', addressLineOne: '3 Main St', city: 'Portland' } as never)).rejects.toThrow(/actor_kind/);
    expect((await db.query('select count(*)::int as n from tenant.locations where tenant_id = $1', [tenant])).rows[0].n).toBe(0);
    expect(await records(tenant)).toEqual([]);
  });
});
