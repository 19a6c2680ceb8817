import { baseUrl, createTestTenant, request } from '../utils/e2e';

describe(`the analyst console's files at /console (${process.env.E2E_MODE} mode)`, () => {
  it('serves the page to anyone (signing in is the page’s), under the app CSP, with every script a same-origin file', async () => {
    const res = await request(`${baseUrl()}/console`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const scripts = [...res.text.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    expect(scripts).toEqual([' src="/console/vendor/echarts.js?v=6.1.0"', ' type="module" src="/console/js/main.js"']);
    expect(res.text).not.toMatch(/https?:\/\//);
    // Its requests (the session's, with its cookie) may go to this origin only: no connect-src widens default-src 'self'.
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('content-security-policy')).not.toContain('connect-src');
  });

  it('serves ECharts from node_modules as immutable, and the console files revalidated', async () => {
    const echarts = await fetch(`${baseUrl()}/console/vendor/echarts.js?v=6.1.0`);
    expect(echarts.status).toBe(200);
    expect(echarts.headers.get('content-type')).toMatch(/javascript/);
    expect(echarts.headers.get('cache-control')).toContain('immutable');
    expect(await echarts.text()).toContain('echarts');
    for (const file of ['/console/console.css', '/console/js/main.js', '/console/js/api.js']) {
      const asset = await fetch(`${baseUrl()}${file}`);
      expect([file, asset.status]).toEqual([file, 200]);
      expect(asset.headers.get('etag')).toBeTruthy();
      await asset.arrayBuffer();
    }
  });

  it('serves nothing outside its folder, and no listing', async () => {
    for (const path of ['/console/..%2Fpackage.json', '/console/%2e%2e/package.json', '/console/js/', '/console/index.html/x', '/console/vendor/other.js']) {
      const res = await request(`${baseUrl()}${path}`);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.body).toEqual({ detail: 'Not Found' });
    }
  });

  it("the console's API calls are the public API's: analyticsQueryModel lists what executeAnalyticsQuery accepts", async () => {
    const tenant = await createTestTenant('Console Model Clinic');
    const { body } = await tenant.graphql('{ analyticsQueryModel { granularities maxLimit operators { type operators } cubes { name measures { name type unit } dimensions { name type } } } }');
    const model = body.data.analyticsQueryModel;
    expect(model.granularities).toEqual(['day', 'week', 'month', 'quarter', 'year']);
    expect(model.maxLimit).toBe(10_000);
    const [cube] = model.cubes;
    expect(cube.measures).toContainEqual({ name: 'revenue.netAmount', type: 'number', unit: 'cents' });
    const time = cube.dimensions.filter((d: { type: string }) => d.type === 'time').map((d: { name: string }) => d.name);
    const plain = cube.dimensions.filter((d: { type: string }) => d.type === 'string').map((d: { name: string }) => d.name);
    // Every member, granularity and operator it lists is one the validator takes.
    const filters = model.operators.flatMap(({ type, operators }: { type: string; operators: string[] }) =>
      operators.map((operator) => {
        const member = type === 'time' ? time[0] : type === 'number' ? cube.measures[0].name : plain[0];
        const values = ['set', 'notSet'].includes(operator) ? undefined : type === 'time' ? (/indaterange/i.test(operator) ? ['2026-01-01', '2026-02-01'] : ['2026-01-01']) : ['1'];
        return { member, operator, ...(values ? { values } : {}) };
      }),
    );
    // Measure and dimension filters cannot share one query's group, so they run apart.
    for (const group of [filters.filter((f: { member: string }) => f.member !== cube.measures[0].name), filters.filter((f: { member: string }) => f.member === cube.measures[0].name)]) {
      const query = { measures: cube.measures.map((m: { name: string }) => m.name), dimensions: plain, timeDimensions: model.granularities.map((granularity: string) => ({ dimension: time[0], granularity })), filters: group, limit: model.maxLimit };
      const run = await tenant.graphql('query($q: JSON!) { executeAnalyticsQuery(query: $q) { data } }', { q: query });
      expect(run.body.errors).toBeUndefined();
    }
    // And it takes an authenticated tenant, like every field.
    const anonymous = await request(`${baseUrl()}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ analyticsQueryModel { maxLimit } }' }) });
    expect(anonymous.status).toBe(422);
  });
});
