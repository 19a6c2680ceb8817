import { Client } from 'pg';
import { issuesOf, startBillingKit, type BillingKit } from './billing-kit';

const VIEW_COLUMNS = [
  'tenant_id', 'id', 'source', 'location_id', 'location_name', 'provider_id', 'provider_name', 'patient_id', 'patient_name', 'item_category',
  'item_type', 'item_name', 'payment_medium', 'gross_cents', 'discount_cents', 'net_cents', 'comment', 'created_at',
];
const LINE = 'id locationId locationName providerId providerName patientId patientName itemCategory itemType itemName paymentMedium grossCents discountCents netCents comment createdDate';

describe('billing subgraph: revenue lines and billing.revenue_line (real PostgreSQL)', () => {
  let kit: BillingKit;
  let db: Client;
  beforeAll(async () => {
    kit = await startBillingKit();
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await kit.close();
  });

  it('exposes exactly the agreed columns, in order', async () => {
    const { rows } = await db.query(`select column_name from information_schema.columns where table_schema = 'billing' and table_name = 'revenue_line' order by ordinal_position`);
    expect(rows.map((r) => r.column_name)).toEqual(VIEW_COLUMNS);
  });

  it('records charge items and packages with names snapshotted at sale time, and the view unions them', async () => {
    const t = await kit.tenant();
    const [location, provider, patient] = [await kit.location(t, { name: 'Harbor' }), await kit.provider(t, { firstName: 'Maya', lastName: 'Okafor' }), await kit.patient(t, { firstName: 'Ada', lastName: 'Lovelace' })];
    const charge = await kit.run(t, `mutation($i: RecordChargeItemInput!) { recordChargeItem(input: $i) { ${LINE} } }`, {
      i: { locationId: location, providerId: provider, patientId: patient, itemCategory: 'Physical therapy', itemType: 'SERVICE', itemName: 'Follow-up visit', paymentMedium: 'CARD', grossCents: 12000, discountCents: 1200, comment: 'Loyalty' },
    });
    expect(charge.errors).toBeUndefined();
    expect(charge.data.recordChargeItem).toMatchObject({ locationName: 'Harbor', providerName: 'Maya Okafor', patientName: 'Ada Lovelace', itemType: 'SERVICE', paymentMedium: 'CARD', netCents: 10800 });
    const pack = await kit.run(t, `mutation($i: RecordSoldPackageInput!) { recordSoldPackage(input: $i) { ${LINE} sessionCount } }`, {
      i: { locationId: location, packageName: '5-visit pack', sessionCount: 5, paymentMedium: 'GIFT_CARD', grossCents: 55000 },
    });
    expect(pack.data.recordSoldPackage).toMatchObject({ itemCategory: 'Packages', itemType: 'PACKAGE', itemName: '5-visit pack', sessionCount: 5, netCents: 55000, providerName: null, patientId: null });
    await kit.tenantGraph.orm.em.getConnection().execute(`update tenant.locations set name = 'Renamed' where id = ?`, [location]);
    const { rows } = await db.query('select source, location_name, item_type, payment_medium, gross_cents, discount_cents, net_cents from billing.revenue_line where tenant_id = $1 order by source', [t]);
    expect(rows).toEqual([
      { source: 'charge_item', location_name: 'Harbor', item_type: 'service', payment_medium: 'card', gross_cents: 12000, discount_cents: 1200, net_cents: 10800 },
      { source: 'sold_package', location_name: 'Harbor', item_type: 'package', payment_medium: 'gift_card', gross_cents: 55000, discount_cents: 0, net_cents: 55000 },
    ]);
  });

  it("validates lines; another tenant's directory ids read as unknown", async () => {
    const [t, other] = [await kit.tenant(), await kit.tenant()];
    const theirs = await kit.location(other);
    const result = await kit.run(t, 'mutation($i: RecordChargeItemInput!) { recordChargeItem(input: $i) { id } }', {
      i: { locationId: theirs, providerId: 'p', patientId: '00000000-0000-4000-8000-000000000000', itemCategory: '', itemType: 'PRODUCT', itemName: 'Tape', paymentMedium: 'CASH', grossCents: 100, discountCents: 200 },
    });
    expect(issuesOf(result).map((i) => [i.type, i.loc.join('.')])).toEqual([
      ['value_error', 'input.locationId'],
      ['value_error', 'input.providerId'],
      ['value_error', 'input.patientId'],
      ['value_error', 'input.itemCategory'],
      ['value_error', 'input.discountCents'],
    ]);
  });

  it('seeds two years of lines over the directory, fast, plus payment methods, gift cards, accounts and members', async () => {
    const t = await kit.tenant('Demo');
    await kit.tenantGraph.seedDemo(t);
    const started = Date.now();
    await kit.billing.seedDemo(t);
    const took = Date.now() - started;
    const { rows } = await db.query(
      `select count(*)::int as lines, count(distinct location_id)::int as locations, count(distinct provider_id)::int as providers,
              min(created_at) as first, max(created_at) as last, count(*) filter (where source = 'sold_package')::int as packages
       from billing.revenue_line where tenant_id = $1`,
      [t],
    );
    expect(rows[0].lines).toBeGreaterThan(2000);
    expect(rows[0].packages).toBeGreaterThan(50);
    expect(rows[0].locations).toBe(3);
    expect(rows[0].providers).toBe(6);
    expect(rows[0].last.getTime() - rows[0].first.getTime()).toBeGreaterThan(700 * 86_400_000);
    expect(took).toBeLessThan(20_000);
    const counts = await kit.run(t, '{ merchantAccounts { isDefault locations { id } } issuedGiftCards { totalCount } members { totalCount } }');
    expect(counts.data.merchantAccounts.filter((m: any) => m.isDefault)).toHaveLength(1);
    expect(counts.data.issuedGiftCards.totalCount).toBe(4);
    expect(counts.data.members.totalCount).toBe(4);
  });

  it('filters the view by tenant and time through the base tables’ indexes', async () => {
    const { rows } = await db.query(
      `explain select * from billing.revenue_line where tenant_id = '00000000-0000-4000-8000-000000000000' and created_at >= now() - interval '30 days'`,
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/charge_items_tenant_(location_)?created_idx/);
    expect(plan).toMatch(/sold_packages_tenant_(location_)?created_idx/);
  });
});
