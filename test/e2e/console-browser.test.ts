import { readFileSync } from 'node:fs';
import { buildSchema, isEnumType } from 'graphql';
import { chromium, type Browser, type Page } from 'playwright-core';
import { schemaDir } from '../../schema/paths';
import { findChromium } from '../browser/find-chromium';
import { openConsoleSignedIn, widgetContent, widgetStates } from '../browser/console-page';
import { newWatchedPage, sessionCookie } from '../browser/session-page';
import { createDemoTenant } from '../subgraphs/analytics/revenue-kit';
import type { TestTenant } from '../utils/e2e';
import { createTestPerson, type TestPerson } from '../utils/people';
import { parse as parseCsvText } from 'csv-parse/sync';

/** RFC 4180 CSV into rows of cells (csv-parse). */
const parseCsv = (text: string): string[][] => parseCsvText(text);

// Functions given to page.evaluate run in the browser; these names are the browser's there (the tests' tsconfig has no DOM lib).
declare const document: any, window: any, localStorage: any, sessionStorage: any, location: any;
declare type HTMLElement = any;
declare type HTMLInputElement = any;
declare type HTMLOptionElement = any;

const executablePath = findChromium();
const describeInBrowser = executablePath ? describe : describe.skip;
// CONSOLE_SCREENSHOTS=docs writes docs/console-dashboard.png and docs/console-composer.png (docs/console.md).
const screenshots = process.env.CONSOLE_SCREENSHOTS;

const supergraph = buildSchema(readFileSync(`${schemaDir()}/supergraph.graphql`, 'utf8'), { assumeValidSDL: true });
const enumValues = (name: string) => {
  const type = supergraph.getType(name);
  if (!isEnumType(type)) throw new Error(`${name} is no enum`);
  return type.getValues().map((v) => v.name);
};


describeInBrowser(`the analyst console in Chromium (${process.env.E2E_MODE} mode)`, () => {
  let browser: Browser;
  let page: Page;
  let sent: Awaited<ReturnType<typeof newWatchedPage>>['sent'];
  let demo: TestTenant;
  // The demo tenant's analyst (no patients:read) and admin, who sign in as people do: no test types an API key.
  let analyst: TestPerson;
  let admin: TestPerson;
  const problems: string[] = [];
  jest.setTimeout(90_000);

  beforeAll(async () => {
    [browser, demo] = await Promise.all([chromium.launch({ executablePath: executablePath!, headless: true, args: ['--no-sandbox'] }), createDemoTenant('Console Demo Clinic')]);
    [analyst, admin] = await Promise.all([createTestPerson(demo, 'analyst'), createTestPerson(demo, 'admin')]);
  }, 90_000);
  afterAll(() => browser?.close());

  beforeEach(async () => {
    problems.length = 0;
    ({ page, sent } = await newWatchedPage(browser, problems, { viewport: { width: 1366, height: 900 }, reducedMotion: 'reduce', acceptDownloads: true }));
  });
  afterEach(() => page?.close());

  it('signs in as the demo tenant’s analyst and draws every widget of the demo dashboard, one of each chart type, with the API’s figures', async () => {
    await openConsoleSignedIn(page, analyst);
    await page.getByRole('heading', { name: 'Dashboards', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Revenue overview' }).click();
    const widgets = await widgetStates(page);
    expect(widgets.filter((w) => w.state !== 'drawn')).toEqual([]);
    expect(new Set(widgets.map((w) => w.chartType))).toEqual(new Set(enumValues('ChartType')));
    for (const widget of widgets) {
      const shown = await widgetContent(page, widget.name);
      if (widget.chartType === 'TABLE') expect([widget.name, shown.rows]).toEqual([widget.name, expect.any(Number)]), expect(shown.rows).toBeGreaterThan(0);
      else if (widget.chartType === 'KPI') expect(shown.text).toMatch(/\d/);
      else {
        const points = shown.series!.flat().filter((v) => v !== null && v !== undefined);
        expect([widget.name, points.length > 0]).toEqual([widget.name, true]);
        expect(shown.marks).toBeGreaterThanOrEqual(widget.chartType === 'LINE' || widget.chartType === 'AREA' ? shown.series!.length : points.length);
      }
    }
    // What the line chart plots is what the query engine answers for the same widget.
    const { body } = await demo.graphql('{ dashboards(name: "Revenue overview") { nodes { widgets { name query } } } }');
    const monthly = body.data.dashboards.nodes[0].widgets.find((w: { name: string }) => w.name === 'Net revenue by month');
    const answer = await demo.graphql('query($q: JSON!) { executeAnalyticsQuery(query: $q) { data } }', { q: monthly.query });
    expect((await widgetContent(page, 'Net revenue by month')).series![0]).toEqual(answer.body.data.executeAnalyticsQuery.data.map((row: Record<string, number>) => row['revenue.netAmount']));
    if (screenshots) await page.screenshot({ path: `${screenshots}/console-dashboard.png` });

    // The location filter narrows every widget: the per-location bar chart keeps one bar.
    const firstLocation = page.getByLabel('Location', { exact: true }).locator('option').nth(1);
    await page.getByLabel('Location', { exact: true }).selectOption((await firstLocation.getAttribute('value'))!);
    expect((await widgetStates(page)).every((w) => w.state === 'drawn')).toBe(true);
    expect((await widgetContent(page, 'Net revenue by location')).series![0]).toHaveLength(1);
    // The session is an HttpOnly cookie the page's scripts cannot read, Secure and SameSite=Strict, which Chromium keeps over
    // http://127.0.0.1 (a loopback origin counts as secure); nothing of it is in storage or the URL.
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie, location.href.includes('hpp_')])).toEqual([0, 0, '', false]);
    expect(await sessionCookie(page)).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict' });
    // No request carried a key or a tenant header; every POST after the sign-in carried the session's CSRF token.
    expect(sent.filter((req) => req.headers['api-key'] || req.headers.tenant)).toEqual([]);
    const posts = sent.filter((req) => req.method === 'POST' && !req.url.endsWith('/auth/sign-in'));
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.filter((req) => !/^[A-Za-z0-9_-]{20,}$/.test(req.headers['x-csrf-token'] ?? '')).map((req) => req.url)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('draws money and counts against axes of their own (issue 34): a count is never read as dollars', async () => {
    await openConsoleSignedIn(page, analyst);
    await page.getByRole('heading', { name: 'Dashboards', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Providers' }).click();
    expect((await widgetStates(page)).filter((w) => w.state !== 'drawn')).toEqual([]);
    const byProvider = await widgetContent(page, 'Net revenue by provider');
    expect(byProvider.axes).toEqual([
      { series: expect.any(String), axis: 'Amount' },
      { series: expect.any(String), axis: 'Count' },
    ]);
  });

  it('creates a widget through the composer, previews it, and finds it drawn after a reload', async () => {
    const tenant = await createDemoTenant('Console Composer Clinic');
    await openConsoleSignedIn(page, await createTestPerson(tenant, 'analyst'), '#/dashboards?name=Discounts');
    await page.getByRole('link', { name: 'Discounts' }).click();
    await page.getByRole('link', { name: 'Add a widget' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Net by item category');
    await page.getByLabel('Chart type').selectOption('BAR');
    await page.getByRole('checkbox', { name: 'Net Amount' }).check();
    await page.getByRole('checkbox', { name: 'Item Category' }).check();
    await page.getByLabel('Sort by').selectOption('revenue.netAmount');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.waitForFunction(() => document.querySelector('.preview .chart') && (window as any).echarts.getInstanceByDom(document.querySelector('.preview .chart')));
    const previewed = await page.evaluate(() => (window as any).echarts.getInstanceByDom(document.querySelector('.preview .chart')).getOption().series[0].data.length);
    expect(previewed).toBeGreaterThan(1);
    if (screenshots) await page.screenshot({ path: `${screenshots}/console-composer.png`, fullPage: true });
    await page.getByRole('button', { name: 'Save widget' }).click();
    await page.getByRole('heading', { name: 'Discounts', level: 1, exact: true }).waitFor();

    const saved = await tenant.graphql('{ widgets(first: 100) { nodes { name query position { x y w h } } } }');
    expect(saved.body.data.widgets.nodes.filter((w: { name: string }) => w.name === 'Net by item category')).toEqual([
      { name: 'Net by item category', query: { measures: ['revenue.netAmount'], dimensions: ['revenue.itemCategory'], order: { 'revenue.netAmount': 'desc' }, timezone: 'America/New_York' }, position: { x: 0, y: 0, w: 6, h: 4 } },
    ]);
    // A reload keeps the session (its cookie): no sign-in form, and the route (in the hash) brings the dashboard back.
    await page.reload();
    const widgets = await widgetStates(page);
    expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
    expect(widgets).toContainEqual({ name: 'Net by item category', chartType: 'BAR', state: 'drawn' });
    expect((await widgetContent(page, 'Net by item category')).series![0]).toHaveLength(previewed);
    expect(problems).toEqual([]);
  });

  it('shows the API’s 422 messages next to the fields they name, and saves nothing', async () => {
    const tenant = await createDemoTenant('Console Validation Clinic');
    const dashboard = (await tenant.graphql('{ dashboards(name: "Providers") { nodes { id } } }')).body.data.dashboards.nodes[0];
    const before = (await tenant.graphql('{ widgets { totalCount } }')).body.data.widgets.totalCount;
    await openConsoleSignedIn(page, await createTestPerson(tenant, 'analyst'), `#/dashboards/${dashboard.id}/widgets/new`);
    await page.getByRole('checkbox', { name: 'Count', exact: true }).check();
    await page.getByLabel('Row limit').fill('20000');
    await page.getByLabel('Width (w)').fill('0');
    await page.getByRole('button', { name: 'Save widget' }).click();
    await page.locator('.field-error:not([hidden])').first().waitFor();
    const name = page.getByRole('textbox', { name: 'Name', exact: true });
    await expectFieldError(name, 'name must not be empty');
    await expectFieldError(page.getByLabel('Row limit'), 'less than or equal to 10000');
    await expectFieldError(page.getByLabel('Width (w)'), 'greater than or equal to 1');
    expect(await name.evaluate((el) => el === document.activeElement)).toBe(true);
    expect((await tenant.graphql('{ widgets { totalCount } }')).body.data.widgets.totalCount).toBe(before);
    expect(problems).toEqual([]);
  });

  async function expectFieldError(control: ReturnType<Page['getByLabel']>, text: string): Promise<void> {
    await expect(control.getAttribute('aria-invalid')).resolves.toBe('true');
    // The message is the control's own description (aria-describedby), inside the same field.
    const described = await control.evaluate((el) => (el.getAttribute('aria-describedby') ?? '').split(' ').map((id: string) => document.getElementById(id)).filter((n: HTMLElement) => n && !n.hidden && el.parentElement!.contains(n)).map((n: HTMLElement) => n!.textContent).join(' '));
    expect(described).toContain(text);
  }

  it('exports the revenue lines of the filters as CSV, row for row what the REST breakdown answers for the same filters', async () => {
    // An admin sees patients' names whole, as the tenant's full key does: the same rows, names included.
    await openConsoleSignedIn(page, admin, '#/revenue');
    await page.getByRole('heading', { name: 'Lines', exact: true }).waitFor();
    // Half a year of the demo's two (its lines end yesterday, wherever today is).
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    const [from, to] = [day(200), day(20)];
    await page.getByLabel('From').fill(from);
    await page.getByLabel('To (inclusive)').fill(to);
    await page.getByRole('group', { name: 'Locations' }).getByRole('checkbox').first().check();
    await page.getByRole('group', { name: 'Payment media' }).getByRole('checkbox', { name: 'Card', exact: true }).check();
    await page.getByLabel('Sort lines by').selectOption('NET_AMOUNT');
    const answered = page.waitForResponse((res) => res.url().endsWith('/graphql') && (res.request().postData() ?? '').includes('query Revenue('));
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await answered;
    await page.waitForFunction(() => document.querySelector('[aria-label="Pages of lines"]')?.textContent?.includes('Page 1') && document.querySelector('section[aria-busy="false"]'));
    const locationId = await page.getByRole('group', { name: 'Locations' }).getByRole('checkbox').first().getAttribute('value');
    const timezone = await page.getByLabel('Time zone').inputValue();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /Export CSV/ }).click();
    const file = await (await download).path();
    const [header, ...rows] = parseCsv(readFileSync(file, 'utf8'));

    // The file holds every line of the filters (all pages), amounts in the currency's units (`netAmount_USD`).
    const items: Record<string, unknown>[] = [];
    for (let p = 1, pages = 1; p <= pages; p++) {
      const query = new URLSearchParams({ timezone, start_date: from, end_date: to, location_ids: locationId!, payment_mediums: 'card', sort_by: 'net_amount', page: String(p), per_page: '100' });
      const rest = await demo.get(`/analytics/dashboards/product-sales-breakdown/revenue-breakdown?${query}`);
      expect(rest.status).toBe(200);
      pages = rest.body.pages;
      items.push(...rest.body.items);
    }
    expect(items.length).toBeGreaterThan(20);
    const amount = (column: string) => /^(grossAmount|discountAmount|netAmount)_[A-Z]{3}$/.exec(column)?.[1];
    expect(rows).toEqual(items.map((item) => header.map((column) => (amount(column) ? (Number(item[amount(column)!]) / 100).toFixed(2) : item[column] === null ? '' : String(item[column])))));
    expect(new Set(rows.map((r) => r[header.indexOf('paymentMedium')]))).toEqual(new Set(['card']));
    // The summary figure agrees with the REST summary of the same filters.
    const summary = await demo.get(`/analytics/dashboards/product-sales-breakdown/revenue-breakdown-summary?${new URLSearchParams({ timezone, start_date: from, end_date: to, location_ids: locationId!, payment_mediums: 'card' })}`);
    await expect(page.locator('.figure').first().locator('.kpi-value').innerText()).resolves.toBe(summary.body.count.toLocaleString('en-US'));
    expect(problems).toEqual([]);
  });

  it('offers exactly the schema’s enums and the API’s query model in its pickers', async () => {
    await openConsoleSignedIn(page, analyst);
    // A string, not a function: jest's compiler would turn import() into require().
    const lists = await page.evaluate(`(async () => {
      const [charts, revenue] = await Promise.all([import('/console/js/charts.js'), import('/console/js/revenue-filters.js')]);
      const values = (pairs) => pairs.map(([value]) => value);
      return { chartTypes: values(charts.CHART_TYPES), groupBy: values(revenue.GROUP_BY), sortFields: values(revenue.SORT_FIELDS) };
    })()`);
    expect(lists).toEqual({ chartTypes: enumValues('ChartType'), groupBy: enumValues('RevenueGroupBy'), sortFields: enumValues('RevenueBreakdownSortField') });
    const dashboard = (await demo.graphql('{ dashboards(name: "Providers") { nodes { id } } }')).body.data.dashboards.nodes[0];
    // Still signed in: a new hash is a navigation inside the page.
    await page.evaluate((hash) => void (location.hash = hash), `#/dashboards/${dashboard.id}/widgets/new`);
    await page.getByRole('group', { name: 'Measures' }).waitFor();
    const model = (await demo.graphql('{ analyticsQueryModel { granularities cubes { measures { name } dimensions { name type } } } }')).body.data.analyticsQueryModel;
    const measures = await page.getByRole('group', { name: 'Measures' }).getByRole('checkbox').evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value));
    expect(measures).toEqual(model.cubes[0].measures.map((m: { name: string }) => m.name));
    const grains = await page.getByLabel('Time grain').locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
    expect(grains).toEqual(model.granularities);
  });
});
