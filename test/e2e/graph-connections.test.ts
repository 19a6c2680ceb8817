import { createTestTenant, type TestTenant } from '../utils/e2e';
import { send } from '../subgraphs/billing/rest-kit';

// Cursor connections on the graph (issue 35; docs/api.md, "Pagination"): paging a list forwards and
// backwards while rows are inserted between the requests neither skips nor repeats a row; bad
// arguments are BAD_USER_INPUT naming the argument; bounded lists say and keep their bound.

const CREATE_PATIENT = 'mutation($i: CreatePatientInput!) { createPatient(input: $i) { id lastName } }';
const PATIENTS = `query($first: Int, $after: String, $last: Int, $before: String) {
  patients(first: $first, after: $after, last: $last, before: $before) {
    totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id lastName } } nodes { lastName }
  }
}`;

interface PatientsPage {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  edges: { cursor: string; node: { id: string; lastName: string } }[];
  nodes: { lastName: string }[];
}

async function addPatient(tenant: TestTenant, lastName: string): Promise<void> {
  const res = await tenant.graphql(CREATE_PATIENT, { i: { firstName: 'Test', lastName } });
  expect(res.body.errors).toBeUndefined();
}

async function patients(tenant: TestTenant, variables: Record<string, unknown>): Promise<PatientsPage> {
  const res = await tenant.graphql(PATIENTS, variables);
  expect(res.body.errors).toBeUndefined();
  const page = res.body.data.patients as PatientsPage;
  // nodes are the edges' nodes, in the same order; the page info's cursors are the ends' cursors.
  expect(page.nodes.map((n) => n.lastName)).toEqual(page.edges.map((e) => e.node.lastName));
  expect([page.pageInfo.startCursor, page.pageInfo.endCursor]).toEqual([page.edges[0]?.cursor ?? null, page.edges.at(-1)?.cursor ?? null]);
  return page;
}

const names = (page: PatientsPage) => page.edges.map((edge) => edge.node.lastName);

describe(`graph connections (${process.env.E2E_MODE} mode)`, () => {
  it('pages forwards with cursors while rows are inserted between pages: none skipped, none repeated', async () => {
    const tenant = await createTestTenant('Connection Clinic');
    for (const name of ['B', 'D', 'F', 'H', 'J', 'L', 'N']) await addPatient(tenant, name);

    const seen: string[] = [];
    let page = await patients(tenant, { first: 3 });
    expect(names(page)).toEqual(['B', 'D', 'F']);
    expect(page.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(page.totalCount).toBe(7);
    seen.push(...names(page));
    // Before the cursor (an offset would now repeat F) and after it (must be met once, in order).
    await addPatient(tenant, 'A');
    await addPatient(tenant, 'C');
    await addPatient(tenant, 'G');
    while (page.pageInfo.hasNextPage) {
      page = await patients(tenant, { first: 3, after: page.pageInfo.endCursor });
      expect(page.pageInfo.hasPreviousPage).toBe(true);
      seen.push(...names(page));
      if (names(page).includes('H')) await addPatient(tenant, 'K');
    }
    expect(seen).toEqual(['B', 'D', 'F', 'G', 'H', 'J', 'K', 'L', 'N']);
    expect(page.totalCount).toBe(11);
  });

  it('pages backwards from the end with last/before, also under inserts', async () => {
    const tenant = await createTestTenant();
    for (const name of ['B', 'D', 'F', 'H', 'J']) await addPatient(tenant, name);

    const seen: string[] = [];
    let page = await patients(tenant, { last: 2 });
    expect(names(page)).toEqual(['H', 'J']);
    expect(page.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    seen.unshift(...names(page));
    await addPatient(tenant, 'I'); // after the cursor: not in the backward walk
    await addPatient(tenant, 'E'); // before it: met once
    while (page.pageInfo.hasPreviousPage) {
      page = await patients(tenant, { last: 2, before: page.pageInfo.startCursor });
      expect(page.pageInfo.hasNextPage).toBe(true);
      seen.unshift(...names(page));
    }
    expect(seen).toEqual(['B', 'D', 'E', 'F', 'H', 'J']);

    // An edge's cursor pages from that very row, either way.
    const all = await patients(tenant, { first: 100 });
    const f = all.edges.find((edge) => edge.node.lastName === 'F')!;
    expect(names(await patients(tenant, { first: 2, after: f.cursor }))).toEqual(['H', 'I']);
    expect(names(await patients(tenant, { last: 2, before: f.cursor }))).toEqual(['D', 'E']);
    expect(names(await patients(tenant, { first: 0 }))).toEqual([]);
  });

  it('refuses bad arguments with BAD_USER_INPUT naming them', async () => {
    const tenant = await createTestTenant();
    await addPatient(tenant, 'Solo');
    const refusal = async (variables: Record<string, unknown>) => {
      const res = await tenant.graphql(PATIENTS, variables);
      expect(res.body.data?.patients ?? null).toBeNull();
      expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      return res.body.errors[0].extensions.validation.map((issue: { type: string; loc: string[] }) => [issue.type, issue.loc.join('.')]);
    };
    expect(await refusal({ first: 2, last: 2 })).toEqual([['value_error', 'last']]);
    expect(await refusal({ first: -1 })).toEqual([['greater_than_equal', 'first']]);
    expect(await refusal({ last: 101 })).toEqual([['less_than_equal', 'last']]);
    expect(await refusal({ after: 'not a cursor' })).toEqual([['value_error', 'after']]);
    expect(await refusal({ before: 'b2Zmc2V0Oi0x' })).toEqual([['value_error', 'before']]); // offset:-1
    // A cursor of another list (its keys differ) is no cursor of this one.
    const dashboards = await tenant.graphql('mutation { createDashboard(input: { name: "D" }) { id } }');
    expect(dashboards.body.errors).toBeUndefined();
    const other = await tenant.graphql('{ dashboards(first: 1) { pageInfo { endCursor } } }');
    expect(await refusal({ after: other.body.data.dashboards.pageInfo.endCursor })).toEqual([['value_error', 'after']]);
  });

  it('bounds a dashboard\'s widgets at 100 and says so', async () => {
    const tenant = await createTestTenant();
    const created = await tenant.graphql('mutation { createDashboard(input: { name: "Full" }) { id } }');
    const dashboardId = created.body.data.createDashboard.id as string;
    // Through REST, whose chart type names are the contract's whatever the graph calls them.
    const widget = (i: number) => send(tenant, 'POST', '/analytics/widgets', { dashboardId, name: `W${i}`, chartType: 'table', query: {} });
    for (let i = 0; i < 100; i += 1) expect((await widget(i)).status).toBe(201);
    expect((await widget(100)).status).toBe(409);
    const listed = await tenant.graphql(`{ dashboard(id: "${dashboardId}") { widgets { id } } }`);
    expect(listed.body.data.dashboard.widgets).toHaveLength(100);
    const described = await tenant.graphql('{ __type(name: "Dashboard") { fields { name description } } }');
    const field = described.body.data.__type.fields.find((f: { name: string }) => f.name === 'widgets');
    expect(field.description).toContain('at most 100');
  });
});
