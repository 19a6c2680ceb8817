import { Client } from 'pg';
import { admin, baseUrl, request, type HttpResult, type TestTenant } from '../../utils/e2e';

/** Shared helpers of the analytics query and revenue breakdown end-to-end suites (test/e2e/analytics-{query,revenue}*.test.ts). */

/** The 4.3 endpoints' common path. */
export const BREAKDOWN = '/analytics/dashboards/product-sales-breakdown';

/** A tenant as createTestTenant makes it, from an operator answer. */
function asTestTenant(tenantId: string, apiKey: string): TestTenant {
  const headers = { TENANT: tenantId, 'API-KEY': apiKey };
  const base = baseUrl();
  return {
    tenantId,
    apiKey,
    headers,
    get: (path, extra = {}) => request(`${base}${path}`, { headers: { ...headers, ...extra } }),
    graphql: (query, variables) => request(`${base}/graphql`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) }),
  };
}

/** A tenant with the demo data (about two years of revenue lines), as `POST /admin/tenants {"demoData": true}` makes it. */
export async function createDemoTenant(name = 'Demo Clinic'): Promise<TestTenant> {
  const created = await admin('/tenants', { method: 'POST', body: JSON.stringify({ name, demoData: true }) });
  if (created.status !== 201) throw new Error(`creating a demo tenant failed: ${created.status} ${created.text}`);
  return asTestTenant(created.body.tenant.id, created.body.apiKey);
}

/** POSTs JSON (a string as is) as the tenant. */
export function post(tenant: TestTenant, path: string, body: unknown): Promise<HttpResult> {
  return request(`${baseUrl()}${path}`, {
    method: 'POST',
    headers: { ...tenant.headers, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Runs the query engine over REST. */
export const executeQuery = (tenant: TestTenant, body: unknown): Promise<HttpResult> => post(tenant, '/analytics/widgets/execute-query', body);

/** GETs one of the 4.3 endpoints with query parameters; arrays become repeated keys. */
export function breakdown(tenant: TestTenant, suffix: string, params: Record<string, string | number | string[]>): Promise<HttpResult> {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  return tenant.get(`${BREAKDOWN}/${suffix}?${search}`);
}

/** Runs a GraphQL operation and fails the test on errors. */
export async function gql(tenant: TestTenant, query: string, variables?: Record<string, unknown>): Promise<any> {
  const res = await tenant.graphql(query, variables);
  if (res.status !== 200 || res.body.errors) throw new Error(`GraphQL failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/** Creates a location through the gateway; returns its id. */
export async function createLocation(tenant: TestTenant, name = 'Main Clinic'): Promise<string> {
  const data = await gql(tenant, 'mutation($i: CreateLocationInput!) { createLocation(input: $i) { id } }', { i: { name, addressLineOne: '1 Main St', city: 'Portland' } });
  return data.createLocation.id;
}

/** A sale to record: the parts a test varies, and when it happened. */
export interface Sale {
  locationId: string;
  grossCents: number;
  discountCents?: number;
  itemCategory?: string;
  paymentMedium?: string;
  comment?: string;
  at: string;
}

/**
 * Records sales with GraphQL `recordChargeItem` (the billing subgraph's real write path) and then
 * moves each line to its `at`: the mutation stamps the current time and takes no other, and these
 * tests need lines at chosen instants (around a DST change). Only the timestamp is touched.
 */
export async function recordSales(tenant: TestTenant, sales: Sale[]): Promise<string[]> {
  const ids: string[] = [];
  for (const sale of sales) {
    const data = await gql(tenant, 'mutation($i: RecordChargeItemInput!) { recordChargeItem(input: $i) { id } }', {
      i: {
        locationId: sale.locationId,
        itemCategory: sale.itemCategory ?? 'Physical therapy',
        itemType: 'SERVICE',
        itemName: 'Visit',
        paymentMedium: sale.paymentMedium ?? 'CARD',
        grossCents: sale.grossCents,
        discountCents: sale.discountCents ?? 0,
        comment: sale.comment ?? null,
      },
    });
    ids.push(data.recordChargeItem.id);
  }
  const db = new Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    for (const [i, id] of ids.entries()) await db.query('update billing.charge_items set created_at = $2 where id = $1 and tenant_id = $3', [id, sales[i].at, tenant.tenantId]);
  } finally {
    await db.end();
  }
  return ids;
}

/** Sums one field over a list of rows. */
export const sum = (rows: Record<string, any>[], field: string): number => rows.reduce((total, row) => total + Number(row[field]), 0);
