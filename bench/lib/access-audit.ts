import { Client } from 'pg';
import type { AuditLoadKind } from '../access-report';
import type { LoadTarget } from './load';
import type { BenchTenant } from './tenant';

/** Rows of each kind the tenant is given: more than a page, so both reads fill their page of 20. */
export const DIRECTORY_ROWS = 25;
const PAGE = 20;

/**
 * The audited read and its proxy without a record (docs/audit.md): a page of patients (PHI: one
 * record of 20 ids per request) and a page of locations (not PHI: no record), each three short
 * texts per item through the same path (resolver, service, `findAndCount` of one flat tenant-scoped
 * entity ordered by two columns and the id, page envelope). Providers would be the nearer name but
 * not the nearer work: their list also joins and hydrates each provider's locations (a
 * many-to-many), which would charge the proxy more and flatter the ratio.
 */
export const AUDIT_QUERIES: Record<AuditLoadKind, { root: 'patients' | 'locations'; query: string }> = {
  audited: { root: 'patients', query: `{ patients(first: ${PAGE}) { nodes { id firstName lastName } } }` },
  unaudited: { root: 'locations', query: `{ locations(first: ${PAGE}) { nodes { id name city } } }` },
};

/** One of the two reads as a load, with the tenant's full key. */
export function auditTarget(baseUrl: string, kind: AuditLoadKind, key: BenchTenant): LoadTarget {
  return { name: `${AUDIT_QUERIES[kind].root} (${kind})`, url: `${baseUrl}/graphql`, method: 'POST', headers: { ...key.headers, 'content-type': 'application/json' }, body: JSON.stringify({ query: AUDIT_QUERIES[kind].query }) };
}

async function graphql(baseUrl: string, key: BenchTenant, query: string, variables: object = {}): Promise<any> {
  const res = await fetch(`${baseUrl}/graphql`, { method: 'POST', headers: { ...key.headers, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as { data?: any; errors?: unknown };
  if (res.status !== 200 || body.errors) throw new Error(`GraphQL answered ${res.status}: ${JSON.stringify(body.errors ?? body).slice(0, 300)}`);
  return body.data;
}

/**
 * Gives the tenant as many patients as locations, through the API (`createPatient`,
 * `createLocation`) as a clinic would, so both pages hold the same number of rows of like size.
 */
export async function seedDirectory(baseUrl: string, key: BenchTenant): Promise<void> {
  for (let i = 0; i < DIRECTORY_ROWS; i++) {
    const n = String(i + 1).padStart(2, '0');
    await graphql(baseUrl, key, 'mutation ($input: CreatePatientInput!) { createPatient(input: $input) { id } }', {
      input: { firstName: `Bench${n}`, lastName: `Patient${n}`, email: `patient${n}@bench.example.com`, phone: '+1 207 555 0100', dateOfBirth: '1980-01-01' },
    });
    await graphql(baseUrl, key, 'mutation ($input: CreateLocationInput!) { createLocation(input: $input) { id } }', {
      input: { name: `Bench Clinic ${n}`, addressLineOne: `${i + 1} Commercial Street`, city: 'Portland', state: 'ME', zipCode: '04101', country: 'US' },
    });
  }
}

/** Both reads answer a full page before any load: a short page, or an error, would compare other work. */
export async function assertFullPages(baseUrl: string, key: BenchTenant): Promise<void> {
  for (const kind of ['audited', 'unaudited'] as const) {
    const { root, query } = AUDIT_QUERIES[kind];
    const items = ((await graphql(baseUrl, key, query)) as Record<string, { nodes: unknown[] }>)[root].nodes;
    if (items.length !== PAGE) throw new Error(`${root} answered ${items.length} items, expected a page of ${PAGE}`);
  }
}

/**
 * Records of reads in the tenant's trail, of any resource: the proxy's reads must write none, so
 * any it wrote would show as records beyond the audited requests and fail the bench's check.
 */
export async function countReadRecords(databaseUrl: string, tenantId: string): Promise<number> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from audit.events where tenant_id = $1 and action like '%.read'`, [tenantId]);
    return rows[0].n;
  } finally {
    await db.end();
  }
}
