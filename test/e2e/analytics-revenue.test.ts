import { createTestTenant, type TestTenant } from '../utils/e2e';
import { breakdown, createLocation, recordSales } from '../subgraphs/analytics/revenue-kit';

const TZ_REASON = 'timezone must be an IANA time zone name, e.g. America/New_York';
const GROUP_BY = "'location', 'provider', 'item_category', 'payment_medium' or 'created_date'";
const ENDPOINTS = ['revenue-breakdown-groups', 'revenue-breakdown', 'revenue-breakdown-group-summaries', 'revenue-breakdown-summary'];
const needsGroup = (suffix: string) => suffix === 'revenue-breakdown-groups' || suffix === 'revenue-breakdown-group-summaries';

describe(`product sales revenue breakdown: parameters and shapes (${process.env.E2E_MODE} mode)`, () => {
  let tenant: TestTenant;
  let north: string;
  let south: string;
  beforeAll(async () => {
    tenant = await createTestTenant('Revenue Clinic');
    [north, south] = [await createLocation(tenant, 'North'), await createLocation(tenant, 'South')];
    await recordSales(tenant, [
      { locationId: north, grossCents: 10000, discountCents: 1000, at: '2026-03-02T15:00:00Z', comment: 'Loyalty discount' },
      { locationId: north, grossCents: 5000, at: '2026-03-03T15:00:00Z', paymentMedium: 'CASH' },
      { locationId: south, grossCents: 20000, discountCents: 2500, at: '2026-03-04T15:00:00Z', itemCategory: 'Retail' },
    ]);
  });

  it.each(ENDPOINTS)('%s: a missing timezone is 422 missing, with input null', async (suffix) => {
    const res = await breakdown(tenant, suffix, needsGroup(suffix) ? { group_by: 'location' } : {});
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [{ type: 'missing', loc: ['query', 'timezone'], msg: 'Field required', input: null }] });
  });

  it.each(ENDPOINTS)('%s: a name that is not an IANA zone is 422 value_error', async (suffix) => {
    const res = await breakdown(tenant, suffix, { timezone: 'Mars/Olympus', ...(needsGroup(suffix) ? { group_by: 'location' } : {}) });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [{ type: 'value_error', loc: ['query', 'timezone'], msg: `Value error, ${TZ_REASON}`, input: 'Mars/Olympus', ctx: { error: TZ_REASON } }] });
  });

  it('group_by comes from the enum and is required where the contract says', async () => {
    const bad = await breakdown(tenant, 'revenue-breakdown-groups', { group_by: 'month', timezone: 'UTC' });
    expect(bad.body).toEqual({ detail: [{ type: 'enum', loc: ['query', 'group_by'], msg: `Input should be ${GROUP_BY}`, input: 'month', ctx: { expected: GROUP_BY } }] });
    const missing = await breakdown(tenant, 'revenue-breakdown-group-summaries', { timezone: 'UTC' });
    expect(missing.body).toEqual({ detail: [{ type: 'missing', loc: ['query', 'group_by'], msg: 'Field required', input: null }] });
    const keyAlone = await breakdown(tenant, 'revenue-breakdown', { timezone: 'UTC', group_key: north });
    const reason = 'group_key needs group_by, which names what the key is';
    expect(keyAlone.body).toEqual({ detail: [{ type: 'value_error', loc: ['query', 'group_key'], msg: `Value error, ${reason}`, input: north, ctx: { error: reason } }] });
  });

  it('sort_direction, sort_by, min_net_amount and per_page give the exact 422 bodies', async () => {
    const direction = await breakdown(tenant, 'revenue-breakdown', { timezone: 'UTC', sort_direction: 'up' });
    expect(direction.body).toEqual({ detail: [{ type: 'enum', loc: ['query', 'sort_direction'], msg: "Input should be 'asc' or 'desc'", input: 'up', ctx: { expected: "'asc' or 'desc'" } }] });
    const sortBy = await breakdown(tenant, 'revenue-breakdown-group-summaries', { timezone: 'UTC', group_by: 'location', sort_by: 'name' });
    const groupSorts = "'created_date', 'group_label', 'count', 'gross_amount', 'discount_amount', 'net_amount' or 'average_net_amount'";
    expect(sortBy.body).toEqual({ detail: [{ type: 'enum', loc: ['query', 'sort_by'], msg: `Input should be ${groupSorts}`, input: 'name', ctx: { expected: groupSorts } }] });
    const amount = await breakdown(tenant, 'revenue-breakdown-summary', { timezone: 'UTC', min_net_amount: 'ten' });
    expect(amount.body).toEqual({ detail: [{ type: 'float_parsing', loc: ['query', 'min_net_amount'], msg: 'Input should be a valid number, unable to parse string as a number', input: 'ten' }] });
    const fraction = await breakdown(tenant, 'revenue-breakdown-group-summaries', { timezone: 'UTC', group_by: 'location', max_net_amount: '10.5' });
    expect(fraction.body).toEqual({ detail: [{ type: 'int_parsing', loc: ['query', 'max_net_amount'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: '10.5' }] });
    const perPage = await breakdown(tenant, 'revenue-breakdown', { timezone: 'UTC', per_page: 101 });
    expect(perPage.body).toEqual({ detail: [{ type: 'less_than_equal', loc: ['query', 'per_page'], msg: 'Input should be less than or equal to 100', input: 101, ctx: { le: 100 } }] });
  });

  it('domain rules: dates, ranges and a created_date that is no date, all reported at once', async () => {
    const res = await breakdown(tenant, 'revenue-breakdown', {
      timezone: 'UTC', start_date: '2026-03-10', end_date: '2026-03-01', min_net_amount: 500, max_net_amount: 100, created_date: 'yesterday', page: 0,
    });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: any) => [d.type, d.loc.join('.'), d.msg])).toEqual([
      ['value_error', 'query.end_date', 'Value error, end_date is before start_date'],
      ['value_error', 'query.max_net_amount', 'Value error, max_net_amount is below min_net_amount'],
      ['value_error', 'query.created_date', 'Value error, must be a date (YYYY-MM-DD)'],
      ['greater_than_equal', 'query.page', 'Input should be greater than or equal to 1'],
    ]);
    const date = await breakdown(tenant, 'revenue-breakdown-summary', { timezone: 'UTC', start_date: '03/01/2026' });
    const reason = 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time';
    expect(date.body).toEqual({ detail: [{ type: 'value_error', loc: ['query', 'start_date'], msg: `Value error, ${reason}`, input: '03/01/2026', ctx: { error: reason } }] });
  });

  it('answers the documented shapes', async () => {
    const groups = await breakdown(tenant, 'revenue-breakdown-groups', { timezone: 'UTC', group_by: 'location' });
    expect(groups.status).toBe(200);
    expect(groups.body).toEqual([
      { groupKey: south, groupLabel: 'South', totalCount: 1 },
      { groupKey: north, groupLabel: 'North', totalCount: 2 },
    ]);
    const summaries = await breakdown(tenant, 'revenue-breakdown-group-summaries', { timezone: 'UTC', group_by: 'item_category', sort_by: 'net_amount', sort_direction: 'asc' });
    expect(summaries.body).toEqual([
      { groupKey: 'Physical therapy', groupLabel: 'Physical therapy', count: 2, grossAmount: 15000, discountAmount: 1000, netAmount: 14000, averageNetAmount: 7000 },
      { groupKey: 'Retail', groupLabel: 'Retail', count: 1, grossAmount: 20000, discountAmount: 2500, netAmount: 17500, averageNetAmount: 17500 },
    ]);
    const summary = await breakdown(tenant, 'revenue-breakdown-summary', { timezone: 'UTC' });
    expect(summary.body).toEqual({
      count: 3, grossAmount: 35000, discountAmount: 3500, netAmount: 31500, averageNetAmount: 10500, chargeItemCount: 3, soldPackageCount: 0,
      firstDate: '2026-03-02T15:00:00.000Z', lastDate: '2026-03-04T15:00:00.000Z',
    });
    const page = await breakdown(tenant, 'revenue-breakdown', { timezone: 'America/Los_Angeles', per_page: 2 });
    expect(page.body).toMatchObject({ total: 3, page: 1, perPage: 2, pages: 2 });
    expect(page.body.items[0]).toEqual({
      id: expect.any(String), source: 'charge_item', locationId: south, locationName: 'South', providerId: null, providerName: null, patientId: null, patientName: null,
      itemCategory: 'Retail', itemType: 'service', itemName: 'Visit', paymentMedium: 'card', grossAmount: 20000, discountAmount: 2500, netAmount: 17500,
      comment: null, createdDate: '2026-03-04T15:00:00.000Z', localDate: '2026-03-04',
    });
  });

  it('filters: lists as repeated keys, names case-insensitively, amounts in cents, comment contains, row-level group filters', async () => {
    const count = async (params: Record<string, string | number | string[]>) => (await breakdown(tenant, 'revenue-breakdown-summary', { timezone: 'UTC', ...params })).body.count;
    expect(await count({ location_ids: [north, south] })).toBe(3);
    expect(await count({ location_ids: [south, 'not-a-uuid'] })).toBe(1);
    expect(await count({ location_names: ['north'] })).toBe(2);
    expect(await count({ payment_mediums: ['cash', 'check'] })).toBe(1);
    expect(await count({ item_types: ['SERVICE'] })).toBe(3);
    expect(await count({ min_net_amount: 9000, max_net_amount: 17500 })).toBe(2);
    expect(await count({ min_net_amount: 9000.5 })).toBe(1);
    expect(await count({ comment: 'LOYALTY' })).toBe(1);
    expect(await count({ start_date: '2026-03-03', end_date: '2026-03-03' })).toBe(1);
    expect(await count({ start_date: '2026-03-03T15:00:00Z' })).toBe(2);
    const rows = await breakdown(tenant, 'revenue-breakdown', { timezone: 'UTC', location: north, payment_medium: 'card', created_date: '2026-03-02' });
    expect(rows.body.items.map((i: any) => i.netAmount)).toEqual([9000]);
    const group = await breakdown(tenant, 'revenue-breakdown', { timezone: 'UTC', group_by: 'location', group_key: north, sort_by: 'net_amount', sort_direction: 'asc' });
    expect(group.body.items.map((i: any) => i.netAmount)).toEqual([5000, 9000]);
    const none = await breakdown(tenant, 'revenue-breakdown', { timezone: 'UTC', group_by: 'provider', group_key: '' });
    expect(none.body.total).toBe(3);
  });

  it("injection attempts are only values: they match nothing and break nothing", async () => {
    for (const hostile of ["'; drop table billing.charge_items; --", "x' or '1'='1", '%', '\\']) {
      const res = await breakdown(tenant, 'revenue-breakdown-summary', { timezone: 'UTC', location_names: [hostile], comment: hostile });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(0);
    }
    expect((await breakdown(tenant, 'revenue-breakdown-summary', { timezone: 'UTC' })).body.count).toBe(3);
  });

  it("never counts another tenant's lines, and another tenant's ids filter to nothing", async () => {
    const other = await createTestTenant('Other Clinic');
    const theirs = await createLocation(other, 'North');
    await recordSales(other, [{ locationId: theirs, grossCents: 99900, at: '2026-03-02T16:00:00Z' }]);
    expect((await breakdown(tenant, 'revenue-breakdown-summary', { timezone: 'UTC' })).body).toMatchObject({ count: 3, netAmount: 31500 });
    expect((await breakdown(tenant, 'revenue-breakdown-summary', { timezone: 'UTC', location_ids: [theirs] })).body.count).toBe(0);
    expect((await breakdown(tenant, 'revenue-breakdown-groups', { timezone: 'UTC', group_by: 'location' })).body).toHaveLength(2);
    expect((await breakdown(tenant, 'revenue-breakdown', { timezone: 'UTC', group_by: 'location', group_key: theirs })).body.total).toBe(0);
    expect((await breakdown(other, 'revenue-breakdown-summary', { timezone: 'UTC' })).body).toMatchObject({ count: 1, netAmount: 99900 });
  });
});
