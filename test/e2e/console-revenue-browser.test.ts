import { readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findChromium } from '../browser/find-chromium';
import { openConsoleSignedIn } from '../browser/console-page';
import { newWatchedPage } from '../browser/session-page';
import { createDemoTenant, gql } from '../subgraphs/analytics/revenue-kit';
import type { TestTenant } from '../utils/e2e';
import { createTestPerson, type TestPerson } from '../utils/people';
import { parse as parseCsv } from 'csv-parse/sync';

// Functions given to page.evaluate run in the browser; these names are the browser's there (the tests' tsconfig has no DOM lib).
declare const document: any, window: any, location: any, MutationObserver: any;

const executablePath = findChromium();
const describeInBrowser = executablePath ? describe : describe.skip;


const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
const count = (text: string) => Number(/· ([\d,]+) lines/.exec(text)?.[1].replaceAll(',', ''));
const LINE_FIELDS = 'id patientName grossCents discountCents netCents';
const BREAKDOWN_ARGS = '$timezone: String!, $startDate: String, $endDate: String, $locationIds: [ID!], $providerNames: [String!], $groupBy: RevenueGroupBy, $groupKey: String, $sortBy: RevenueBreakdownSortField! = CREATED_DATE, $sortDirection: SortDirection! = DESC, $after: String';
const BREAKDOWN = `query(${BREAKDOWN_ARGS}) { revenueBreakdown(timezone: $timezone, startDate: $startDate, endDate: $endDate, locationIds: $locationIds, providerNames: $providerNames, groupBy: $groupBy, groupKey: $groupKey, sortBy: $sortBy, sortDirection: $sortDirection, first: 100, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { ${LINE_FIELDS} } } }`;

/**
 * The revenue explorer (docs/console.md, Revenue explorer): its view lives in the link, so a link
 * opened by another person of the tenant shows the same view; drill-downs by chips and chart
 * clicks; days in date order; the whole result as CSV and the chart as PNG.
 */
describeInBrowser(`the revenue explorer in Chromium (${process.env.E2E_MODE} mode)`, () => {
  let browser: Browser;
  let demo: TestTenant;
  let admin: TestPerson;
  let otherAdmin: TestPerson;
  let analyst: TestPerson;
  const pages: Page[] = [];
  const problems: string[] = [];
  jest.setTimeout(120_000);

  beforeAll(async () => {
    [browser, demo] = await Promise.all([chromium.launch({ executablePath: executablePath!, headless: true, args: ['--no-sandbox'] }), createDemoTenant('Console Revenue Clinic')]);
    [admin, otherAdmin, analyst] = await Promise.all([createTestPerson(demo, 'admin'), createTestPerson(demo, 'admin'), createTestPerson(demo, 'analyst')]);
  }, 120_000);
  afterAll(() => browser?.close());
  beforeEach(() => void (problems.length = 0));
  afterEach(async () => {
    await Promise.all(pages.splice(0).map((p) => p.close()));
  });

  async function newPage(): Promise<Page> {
    const { page } = await newWatchedPage(browser, problems, { viewport: { width: 1366, height: 900 }, reducedMotion: 'reduce', acceptDownloads: true });
    pages.push(page);
    return page;
  }

  /** Does `act` and waits until the explorer has shown the answer to the query it caused. */
  async function shown(page: Page, act: () => Promise<unknown>): Promise<void> {
    const answered = page.waitForResponse((res) => res.url().endsWith('/graphql') && (res.request().postData() ?? '').includes('query Revenue('));
    await act();
    await answered;
    await page.waitForFunction(() => document.querySelector('section[aria-labelledby="lines-title"]')?.getAttribute('aria-busy') === 'false');
  }

  /** Signs `person` in on a new page at `hash` and waits for the explorer's answer. */
  async function openAs(person: TestPerson, hash: string): Promise<Page> {
    const page = await newPage();
    await shown(page, () => openConsoleSignedIn(page, person, hash));
    return page;
  }

  /** Everything the explorer shows: the form's values, the chips, figures, groups (the table's, not the chart's hidden one), lines and pager. */
  const screen = (page: Page) =>
    page.evaluate(() => ({
      form: [...document.querySelector('form.revenue-filters').elements].filter((e: any) => e.name).map((e: any) => (e.type === 'checkbox' ? `${e.name}=${e.value}:${e.checked}` : `${e.name}=${e.value}`)),
      chips: [...document.querySelectorAll('.chip')].map((c: any) => c.textContent),
      figures: [...document.querySelectorAll('.figures .kpi-value')].map((e: any) => e.textContent),
      groups: [...document.querySelectorAll('section[aria-labelledby="groups-title"] .table-scroll[aria-label="Groups"] tbody tr')].map((tr: any) => [...tr.cells].slice(0, 5).map((td: any) => td.textContent)),
      heading: document.querySelector('#lines-title')?.textContent,
      lines: [...document.querySelectorAll('table.lines tbody tr')].map((tr: any) => [...tr.cells].map((td: any) => td.textContent)),
      pager: document.querySelector('[aria-label="Pages of lines"] span')?.textContent ?? '',
    }));
  /** One column of the lines table, by its header. */
  const column = (page: Page, header: string) =>
    page.evaluate((name) => {
      const index = [...document.querySelectorAll('table.lines thead th')].findIndex((th: any) => th.textContent === name);
      return [...document.querySelectorAll('table.lines tbody tr')].map((tr: any) => tr.cells[index].textContent);
    }, header);

  it('a link made by applying filters, a grouping, a group, a sort and a page shows the same view to another person of the tenant', async () => {
    const page = await openAs(admin, '#/revenue');
    await page.getByLabel('From').fill(day(150));
    await page.getByLabel('To (inclusive)').fill(day(5));
    await page.getByRole('group', { name: 'Locations' }).getByRole('checkbox').first().check();
    await page.getByLabel('Group by').selectOption('PAYMENT_MEDIUM');
    await page.getByLabel('Sort lines by').selectOption('NET_AMOUNT');
    await page.getByLabel('Direction').selectOption('ASC');
    await shown(page, () => page.getByRole('button', { name: 'Apply filters' }).click());
    // Payment media by their names, in the group table and the lines.
    await shown(page, () => page.getByRole('button', { name: 'Lines of Card', exact: true }).click());
    await shown(page, () => page.getByRole('button', { name: 'Next →' }).click());
    const hash: string = await page.evaluate(() => location.hash);
    const params = new URLSearchParams(hash.split('?')[1]);
    // The link spells the graph's enum values lower-case, as links made before the graph's names changed did.
    expect(Object.fromEntries(['groupBy', 'groupKey', 'sortBy', 'sortDirection', 'page', 'startDate', 'endDate'].map((k) => [k, params.get(k)]))).toEqual({ groupBy: 'payment_medium', groupKey: 'card', sortBy: 'net_amount', sortDirection: 'asc', page: '2', startDate: day(150), endDate: day(5) });
    const before = await screen(page);
    expect(before.heading).toBe('Lines of Card');
    expect(before.pager).toMatch(/^Page 2 of/);
    expect(new Set(await column(page, 'Paid by'))).toEqual(new Set(['Card']));
    // The link's filters are the API's: the same total for the same arguments.
    const api = await gql(demo, BREAKDOWN, { timezone: params.get('timezone'), startDate: day(150), endDate: day(5), locationIds: params.getAll('locationIds'), groupBy: 'PAYMENT_MEDIUM', groupKey: 'card', sortBy: 'NET_AMOUNT', sortDirection: 'ASC' });
    expect(count(before.pager)).toBe(api.revenueBreakdown.totalCount);
    expect(api.revenueBreakdown.totalCount).toBeGreaterThan(20);

    const other = await openAs(otherAdmin, hash);
    expect(await screen(other)).toEqual(before);
    // Back steps to the view before: page 1 of the same group.
    await shown(page, () => page.goBack());
    expect((await screen(page)).pager).toMatch(/^Page 1 of/);
    // A link to a page past the last (the data shrank since it was made) says so and offers the last page.
    const past = new URLSearchParams(hash.split('?')[1]);
    past.set('page', '999');
    await shown(other, () => other.evaluate((to) => void (location.hash = to), `#/revenue?${past}`));
    await other.getByText('Page 999 is past the last one.').waitFor();
    await shown(other, () => other.getByRole('button', { name: /^Go to page \d+$/ }).click());
    const last = Math.ceil(api.revenueBreakdown.totalCount / 20);
    expect((await screen(other)).pager).toMatch(new RegExp(`^Page ${last} of ${last} · `));
    expect(problems).toEqual([]);
  });

  it('a link with providerNames shows a removable chip and only that provider’s lines', async () => {
    const providers = (await gql(demo, '{ revenueBreakdownGroups(timezone: "UTC", groupBy: PROVIDER) { groupLabel totalCount } }')).revenueBreakdownGroups.filter((g: { groupLabel: string | null }) => g.groupLabel);
    const name: string = providers[0].groupLabel;
    const page = await openAs(analyst, `#/revenue?${new URLSearchParams({ timezone: 'UTC', providerNames: name })}`);
    await page.getByRole('listitem').filter({ hasText: `Provider: ${name}` }).waitFor();
    const api = await gql(demo, BREAKDOWN, { timezone: 'UTC', providerNames: [name] });
    const shownView = await screen(page);
    expect(count(shownView.pager)).toBe(api.revenueBreakdown.totalCount);
    expect(new Set(await column(page, 'Provider'))).toEqual(new Set([name]));

    await shown(page, () => page.getByRole('button', { name: `Remove filter Provider: ${name}` }).click());
    expect(await page.evaluate(() => location.hash)).not.toContain('providerNames');
    const all = await gql(demo, BREAKDOWN, { timezone: 'UTC' });
    expect(count((await screen(page)).pager)).toBe(all.revenueBreakdown.totalCount);
    expect(all.revenueBreakdown.totalCount).toBeGreaterThan(api.revenueBreakdown.totalCount);
    expect((await screen(page)).chips).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('a link reads codes and enum values in either case: one made before the graph’s names changed shows what one in its spelling does', async () => {
    const old = await openAs(analyst, `#/revenue?${new URLSearchParams({ timezone: 'UTC', paymentMediums: 'card', groupBy: 'location', sortBy: 'net_amount', sortDirection: 'asc' })}`);
    const graph = await openAs(analyst, `#/revenue?${new URLSearchParams({ timezone: 'UTC', paymentMediums: 'CARD', groupBy: 'LOCATION', sortBy: 'NET_AMOUNT', sortDirection: 'ASC' })}`);
    const shownOld = await screen(old);
    expect(shownOld.form).toEqual(expect.arrayContaining(['paymentMediums=card:true', 'groupBy=LOCATION', 'sortBy=NET_AMOUNT', 'sortDirection=ASC']));
    expect(shownOld.chips).toEqual([]);
    expect(await screen(graph)).toEqual(shownOld);
    expect(new Set(await column(old, 'Paid by'))).toEqual(new Set(['Card']));
    // The API filtered by the medium: the REST summary of the same filter counts the same lines.
    const rest = await demo.get(`/analytics/dashboards/product-sales-breakdown/revenue-breakdown-summary?${new URLSearchParams({ timezone: 'UTC', payment_mediums: 'card' })}`);
    expect(count(shownOld.pager)).toBe(rest.body.count);
    expect(problems).toEqual([]);
  });

  it('a click on a bar of the group chart opens that group’s lines', async () => {
    // A link in the graph's spelling (`LOCATION`) is read as well as the lower-case one the console writes.
    const page = await openAs(admin, '#/revenue?timezone=UTC&groupBy=LOCATION');
    await page.locator('.group-chart .chart').waitFor();
    const bar = await page.evaluate(() => {
      const element = document.querySelector('.group-chart .chart');
      // The mouse clicks in the viewport: the chart is brought into it first.
      element.scrollIntoView({ block: 'center' });
      const chart = window.echarts.getInstanceByDom(element);
      const option = chart.getOption();
      const top = chart.convertToPixel({ seriesIndex: 0 }, [0, option.series[0].data[0]]);
      const base = chart.convertToPixel({ seriesIndex: 0 }, [0, 0]);
      const box = element.getBoundingClientRect();
      return { x: box.left + top[0], y: box.top + (top[1] + base[1]) / 2, label: option.xAxis[0].data[0] as string };
    });
    const groups = (await gql(demo, '{ revenueBreakdownGroupSummaries(timezone: "UTC", groupBy: LOCATION, sortBy: NET_AMOUNT) { groupKey groupLabel count } }')).revenueBreakdownGroupSummaries;
    expect(bar.label).toBe(groups[0].groupLabel);
    await shown(page, () => page.mouse.click(bar.x, bar.y));
    expect(new URLSearchParams((await page.evaluate(() => location.hash)).split('?')[1]).get('groupKey')).toBe(groups[0].groupKey);
    const view = await screen(page);
    expect(view.heading).toBe(`Lines of ${groups[0].groupLabel}`);
    expect(count(view.pager)).toBe(groups[0].count);
    expect(new Set(await column(page, 'Location'))).toEqual(new Set([groups[0].groupLabel]));
    expect(problems).toEqual([]);
  });

  it('groups by day in date order, every day, and downloads the chart as a PNG', async () => {
    const [from, to] = [day(50), day(8)];
    // A link as the console wrote it before the graph's enum names changed (`created_date`) still opens its view.
    const page = await openAs(admin, `#/revenue?${new URLSearchParams({ timezone: 'UTC', startDate: from, endDate: to, groupBy: 'created_date' })}`);
    const api = (await gql(demo, `{ revenueBreakdownGroupSummaries(timezone: "UTC", startDate: "${from}", endDate: "${to}", groupBy: CREATED_DATE, sortBy: NET_AMOUNT) { groupKey count netCents } }`)).revenueBreakdownGroupSummaries as { groupKey: string; count: number; netCents: number }[];
    const days = api.map((g) => g.groupKey).sort();
    expect(days.length).toBeGreaterThan(20);
    const view = await screen(page);
    expect(view.groups.map((row) => row[0])).toEqual(days);
    expect(view.groups.map((row) => Number(row[1].replaceAll(',', '')))).toEqual(days.map((d) => api.find((g) => g.groupKey === d)!.count));
    // The chart: a day axis in date order with every day of the answer, each bar its day's net.
    const drawn = await page.evaluate(() => {
      const option = window.echarts.getInstanceByDom(document.querySelector('.group-chart .chart')).getOption();
      return { categories: option.xAxis[0].data as string[], values: option.series[0].data as (number | null)[] };
    });
    expect(drawn.categories).toEqual([...drawn.categories].sort());
    for (const g of api) expect(drawn.values[drawn.categories.indexOf(g.groupKey)]).toBe(g.netCents);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download chart (PNG)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('revenue-by-created_date.png');
    const bytes = readFileSync(await file.path());
    expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    expect(bytes.length).toBeGreaterThan(5_000);
    expect(problems).toEqual([]);
  });

  it('writes amounts in units exactly from cents, and keeps formula-like text as text but negative amounts as numbers', async () => {
    const page = await openAs(analyst, '#/revenue');
    // A string, not a function: jest's compiler would turn import() into require().
    const written = await page.evaluate(`(async () => {
      const csv = await import('/console/js/csv.js');
      const cents = [0, 5, -5, 100, -123456, 1999, 9007199254740991];
      return { units: cents.map(csv.centsToUnits), row: csv.csvRows(['a', 'b', 'c', 'd'], [{ a: '-0.05', b: '=HYPERLINK("x")', c: '-1+2', d: '@SUM(A1)' }]) };
    })()`);
    expect(written).toEqual({ units: ['0.00', '0.05', '-0.05', '1.00', '-1234.56', '19.99', '90071992547409.91'], row: `-0.05,"'=HYPERLINK(""x"")",'-1+2,'@SUM(A1)\r\n` });
    expect(problems).toEqual([]);
  });

  /** Exports the view at `hash` as `person`: the file's rows and the progress texts shown meanwhile. */
  async function exportCsv(person: TestPerson, hash: string): Promise<{ header: string[]; rows: string[][]; progress: string[] }> {
    const page = await openAs(person, hash);
    // Every text the progress status takes, as it changes (the export may be quicker than a poll).
    await page.evaluate(() => {
      window.progressSeen = [];
      new MutationObserver(() => {
        const status = document.querySelector('.export [role="status"]');
        if (status && document.querySelector('.export progress') && window.progressSeen.at(-1) !== status.textContent) window.progressSeen.push(status.textContent);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /^Export CSV \(all [\d,]+ lines\)$/ }).click();
    const [header, ...rows] = parseCsv(readFileSync(await (await download).path(), 'utf8'));
    return { header, rows, progress: await page.evaluate(() => window.progressSeen) };
  }

  /** A window of days up to yesterday with more than one page of 100 lines, and its line count. */
  async function moreThanOnePage(): Promise<{ from: string; total: number }> {
    let from = '';
    let total = 0;
    for (const days of [20, 40, 80, 160, 320]) {
      from = day(days);
      total = (await gql(demo, BREAKDOWN, { timezone: 'UTC', startDate: from, endDate: day(1) })).revenueBreakdown.totalCount;
      if (total > 100) break;
    }
    expect(total).toBeGreaterThan(100);
    return { from, total };
  }

  it('Cancel stops an export between pages: no file, and the button is back', async () => {
    const { from, total } = await moreThanOnePage();
    const page = await openAs(admin, `#/revenue?${new URLSearchParams({ timezone: 'UTC', startDate: from, endDate: day(1) })}`);
    // The second page's request is held until Cancel is pressed, so the click surely falls between two pages.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/graphql', async (route) => {
      const body = route.request().postData() ?? '';
      if (body.includes('query RevenueExport(') && JSON.parse(body).variables.after != null) await held;
      await route.continue();
    });
    const downloads: unknown[] = [];
    page.on('download', (d) => void downloads.push(d));
    await page.getByRole('button', { name: /^Export CSV \(all/ }).click();
    await page.getByRole('status').filter({ hasText: `100 of ${total.toLocaleString('en-US')} lines` }).waitFor();
    const secondPage = page.waitForResponse((res) => (res.request().postData() ?? '').includes('query RevenueExport(') && JSON.parse(res.request().postData()!).variables.after != null);
    await page.getByRole('button', { name: 'Cancel' }).click();
    release();
    await secondPage;
    await page.getByRole('button', { name: `Export CSV (all ${total.toLocaleString('en-US')} lines)` }).waitFor();
    expect(await page.locator('.export progress').count()).toBe(0);
    expect(downloads).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('exports the whole result as one CSV, page after page, amounts in currency units; an analyst’s has patients masked', async () => {
    const { from, total } = await moreThanOnePage();
    const variables = { timezone: 'UTC', startDate: from, endDate: day(1), sortBy: 'NET_AMOUNT' as const, sortDirection: 'DESC' as const };
    const lines: { id: string; patientName: string | null; grossCents: number; discountCents: number; netCents: number }[] = [];
    for (let after: string | null = null, more = true; more; ) {
      const answer: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: typeof lines } = (await gql(demo, BREAKDOWN, { ...variables, after })).revenueBreakdown;
      ({ hasNextPage: more, endCursor: after } = answer.pageInfo);
      lines.push(...answer.nodes);
    }
    const { currency } = (await gql(demo, '{ publicTenant { currency } }')).publicTenant;
    const hash = `#/revenue?${new URLSearchParams({ timezone: 'UTC', startDate: from, endDate: day(1), sortBy: 'net_amount', sortDirection: 'desc' })}`;

    const full = await exportCsv(admin, hash);
    expect(full.rows).toHaveLength(total);
    expect(full.header).toEqual(expect.arrayContaining(['id', 'patientName', `grossAmount_${currency}`, `discountAmount_${currency}`, `netAmount_${currency}`]));
    expect(full.header).not.toContain('netAmount');
    const at = (name: string) => full.header.indexOf(name);
    expect(full.rows.map((r) => r[at('id')])).toEqual(lines.map((l) => l.id));
    // The file names its amounts in currency units as REST does (`netAmount_USD`); the graph's lines have them in cents.
    for (const [amount, cents] of [['grossAmount', 'grossCents'], ['discountAmount', 'discountCents'], ['netAmount', 'netCents']] as const) {
      expect(full.rows.map((r) => r[at(`${amount}_${currency}`)])).toEqual(lines.map((l) => (l[cents] / 100).toFixed(2)));
    }
    expect(full.rows.map((r) => r[at('patientName')])).toEqual(lines.map((l) => l.patientName ?? ''));
    expect(full.progress[0]).toBe(`0 of ${total.toLocaleString('en-US')} lines`);
    expect(full.progress).toContain(`100 of ${total.toLocaleString('en-US')} lines`);

    // The analyst's role lacks patients:read: the same lines, each patient's name masked by the server.
    const masked = await exportCsv(analyst, hash);
    expect(masked.rows.map((r) => r[at('id')])).toEqual(lines.map((l) => l.id));
    const named = lines.filter((l) => l.patientName);
    expect(named.length).toBeGreaterThan(0);
    expect(named.some((l) => l.patientName!.length > 1 && !l.patientName!.endsWith('***'))).toBe(true);
    const byId = new Map(masked.rows.map((r) => [r[at('id')], r[at('patientName')]]));
    for (const line of named) expect(byId.get(line.id)).toBe(`${[...line.patientName!][0]}***`);
    expect(problems).toEqual([]);
  });
});
