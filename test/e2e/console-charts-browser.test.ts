import { chromium, type Browser, type Page } from 'playwright-core';
import { openConsoleSignedIn, widgetStates } from '../browser/console-page';
import { findChromium } from '../browser/find-chromium';
import { newWatchedPage } from '../browser/session-page';
import { createDemoTenant, gql } from '../subgraphs/analytics/revenue-kit';
import { baseUrl, type TestTenant } from '../utils/e2e';
import { createTestPerson, type TestPerson } from '../utils/people';

// Functions given to page.evaluate run in the browser; these names are the browser's there (the tests' tsconfig has no DOM lib).
declare const document: any, window: any;

const executablePath = findChromium();
const describeInBrowser = executablePath ? describe : describe.skip;

/** A calendar date `n` days before today (UTC), `YYYY-MM-DD`. */
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
/** The dates from `from` to `to`, inclusive, in order. */
function datesBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}
const usd = (cents: number) => (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });

/** What one widget's chart holds: its ECharts option parts, its element's ARIA, its text alternative and the SVG's texts. */
function chartOf(page: Page, name: string) {
  return page.evaluate((widgetName) => {
    const widget = [...document.querySelectorAll('.widget')].find((w: any) => w.querySelector('h2')?.textContent === widgetName);
    const chart = widget.querySelector('.chart');
    const option = (window as any).echarts.getInstanceByDom(chart).getOption();
    const described = document.getElementById(chart.getAttribute('aria-describedby'));
    return {
      categories: option.xAxis?.[0]?.data ?? null,
      axisLabel: option.xAxis?.[0]?.axisLabel ?? null,
      legend: option.legend?.[0] ?? null,
      series: option.series.map((s: any) => ({ name: s.name, data: s.data })),
      backgroundColor: option.backgroundColor,
      role: chart.getAttribute('role'),
      label: chart.getAttribute('aria-label'),
      describedText: described?.textContent ?? '',
      describedHidden: described?.classList.contains('visually-hidden') ?? false,
      describedRows: described ? [...described.querySelectorAll('tbody tr')].map((tr: any) => [...tr.children].map((c: any) => c.textContent)) : [],
      svgTexts: [...chart.querySelectorAll('svg text')].map((t: any) => ({ text: t.textContent, fill: t.getAttribute('fill') ?? '' })),
      widgetText: widget.querySelector('.widget-body').textContent,
    };
  }, name);
}

/** Relative luminance (0 black to 1 white) of a `#rgb`, `#rrggbb` or `rgb(a)()` colour. */
function luminance(color: string): number {
  let rgb: number[];
  if (color.startsWith('#')) {
    const hex = color.length === 4 ? [...color.slice(1)].map((c) => c + c).join('') : color.slice(1, 7);
    rgb = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  } else rgb = (color.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map(Number);
  const [r, g, b] = rgb.map((v) => v / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

describeInBrowser(`console charts read correctly at a glance (issue 34, ${process.env.E2E_MODE} mode)`, () => {
  let browser: Browser;
  let page: Page;
  let demo: TestTenant;
  let analyst: TestPerson;
  let dashboardId: string;
  const problems: string[] = [];
  const longProvider = { firstName: 'Alexandra-Konstantina', lastName: 'Vanderbilt-Montgomery-Ashworth' };
  // Three weeks of days ending well before the demo data's last day; the demo has no sales on Sundays.
  const [from, to] = [daysAgo(40), daysAgo(20)];
  const daily = { measures: ['revenue.netAmount', 'revenue.averageNet'], timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'day', dateRange: [from, to] }], order: { 'revenue.netAmount': 'desc' } };
  jest.setTimeout(90_000);

  beforeAll(async () => {
    [browser, demo] = await Promise.all([chromium.launch({ executablePath: executablePath!, headless: true, args: ['--no-sandbox'] }), createDemoTenant('Console Charts Clinic')]);
    analyst = await createTestPerson(demo, 'analyst');
    // A provider with a long name, and a sale of theirs today.
    const { locations } = await gql(demo, '{ locations(first: 1) { nodes { id } } }');
    const { createProvider } = await gql(demo, 'mutation($i: CreateProviderInput!) { createProvider(input: $i) { id } }', { i: longProvider });
    await gql(demo, 'mutation($i: RecordChargeItemInput!) { recordChargeItem(input: $i) { id } }', {
      i: { locationId: locations.nodes[0].id, providerId: createProvider.id, itemCategory: 'Physical therapy', itemType: 'SERVICE', itemName: 'Visit', paymentMedium: 'WALLET_PAY', grossCents: 12_345 },
    });
    const { createDashboard } = await gql(demo, 'mutation($i: CreateDashboardInput!) { createDashboard(input: $i) { id } }', { i: { name: 'Chart checks', layout: { columns: 12, rowHeight: 80 } } });
    dashboardId = createDashboard.id;
    const widgets = [
      { name: 'Net by payment medium', chartType: 'PIE', query: { measures: ['revenue.netAmount'], dimensions: ['revenue.paymentMedium'] }, position: { x: 0, y: 0, w: 6, h: 4 } },
      { name: 'Lines by payment medium', chartType: 'BAR', query: { measures: ['revenue.count'], dimensions: ['revenue.paymentMedium'] }, position: { x: 6, y: 0, w: 6, h: 4 } },
      { name: 'Net and average by day', chartType: 'LINE', query: daily, position: { x: 0, y: 4, w: 12, h: 4 } },
      { name: 'Net by provider', chartType: 'BAR', query: { measures: ['revenue.netAmount'], dimensions: ['revenue.provider'], order: { 'revenue.netAmount': 'desc' } }, position: { x: 0, y: 8, w: 4, h: 4 } },
      { name: 'Discounts by medium', chartType: 'TABLE', query: { measures: ['revenue.discountAmount'], dimensions: ['revenue.paymentMedium'] }, position: { x: 4, y: 8, w: 8, h: 4 } },
    ];
    for (const input of widgets) await gql(demo, 'mutation($i: CreateWidgetInput!) { createWidget(input: $i) { id } }', { i: { dashboardId, ...input } });
  }, 90_000);
  afterAll(() => browser?.close());

  beforeEach(async () => {
    problems.length = 0;
    ({ page } = await newWatchedPage(browser, problems, { viewport: { width: 1366, height: 1100 }, reducedMotion: 'reduce', locale: 'en-US' }));
  });
  afterEach(() => page?.close());

  async function openDashboard(): Promise<void> {
    await openConsoleSignedIn(page, analyst, `#/dashboards/${dashboardId}`);
    expect((await widgetStates(page)).filter((w) => w.state !== 'drawn')).toEqual([]);
  }

  it('names payment media by their labels in pie, bar and table, and keeps the codes for drill-down', async () => {
    const answer = (await gql(demo, 'query($q: JSON!) { executeAnalyticsQuery(query: $q) { data annotation } }', { q: { measures: ['revenue.netAmount'], dimensions: ['revenue.paymentMedium'] } })).executeAnalyticsQuery;
    const media = answer.data.map((row: Record<string, string>) => row['revenue.paymentMedium']);
    expect(media).toContain('wallet_pay');
    await openDashboard();
    const pie = await chartOf(page, 'Net by payment medium');
    expect(pie.series[0].data.map((d: { name: string }) => d.name)).toContain('Wallet pay');
    expect(pie.series[0].data.map((d: { name: string }) => d.name)).not.toContain('wallet_pay');
    expect(pie.svgTexts.map((t) => t.text)).toContain('Wallet pay');
    const bar = await chartOf(page, 'Lines by payment medium');
    expect(bar.categories).toContain('Wallet pay');
    expect(bar.categories).toContain('Bank transfer (ACH)');
    for (const name of ['Net by payment medium', 'Lines by payment medium', 'Discounts by medium']) {
      const text = await page.locator('.widget', { has: page.getByRole('heading', { name, exact: true }) }).locator('.widget-body').textContent();
      expect([name, text!.includes('wallet_pay'), text!.includes('Wallet pay')]).toEqual([name, false, true]);
    }
    // A clicked slice still reports the code the API filters by.
    const picked = await page.evaluate(`(async () => {
      const { pickedMembers } = await import('/console/js/charts.js');
      const result = ${JSON.stringify(answer)};
      return result.data.map((row, dataIndex) => pickedMembers(result, { componentType: 'series', seriesType: 'pie', dataIndex }));
    })()`);
    expect(picked).toEqual(media.map((m: string) => ({ 'revenue.paymentMedium': m })));
    expect(problems).toEqual([]);
  });

  it('draws a daily series in date order with every day of its range, zero where no lines were (averages left empty)', async () => {
    // The widget's query as saved (it carries the tenant's time zone), answered by the API.
    const { dashboard } = await gql(demo, 'query($id: ID!) { dashboard(id: $id) { widgets { name query } } }', { id: dashboardId });
    const saved = dashboard.widgets.find((w: { name: string }) => w.name === 'Net and average by day').query;
    const rows: Record<string, any>[] = (await gql(demo, 'query($q: JSON!) { executeAnalyticsQuery(query: $q) { data } }', { q: saved })).executeAnalyticsQuery.data;
    const byDay = new Map(rows.map((row) => [String(row['revenue.createdAt.day']).slice(0, 10), row]));
    const days = datesBetween(from, to);
    // The premise: the answer skips days (Sundays) and does not come in date order.
    expect(byDay.size).toBeLessThan(days.length);
    expect([...byDay.keys()]).not.toEqual([...byDay.keys()].sort());
    await openDashboard();
    const line = await chartOf(page, 'Net and average by day');
    expect(line.categories).toEqual(days);
    expect(line.series[0].data).toEqual(days.map((d) => byDay.get(d)?.['revenue.netAmount'] ?? 0));
    expect(line.series[1].data).toEqual(days.map((d) => byDay.get(d)?.['revenue.averageNet'] ?? null));

    // The text alternative: the chart is an image named by the widget, described by a hidden table of formatted figures.
    expect([line.role, line.label, line.describedHidden]).toEqual(['img', 'Net and average by day', true]);
    expect(line.describedRows.map((r) => r[0])).toEqual(days);
    const busiest = rows.reduce((a, b) => (a['revenue.netAmount'] > b['revenue.netAmount'] ? a : b));
    const busiestDay = String(busiest['revenue.createdAt.day']).slice(0, 10);
    expect(line.describedRows.find((r) => r[0] === busiestDay)).toEqual([busiestDay, usd(busiest['revenue.netAmount']), usd(busiest['revenue.averageNet'])]);
    expect(line.describedText).toMatch(/\$\d{1,3}(,\d{3})*\.\d{2}/);
    for (const row of rows) expect(line.describedText).not.toContain(String(row['revenue.netAmount']));
    expect(line.describedRows.filter((r) => !byDay.has(r[0])).map((r) => r[1])).toEqual(days.filter((d) => !byDay.has(d)).map(() => usd(0)));
    expect(problems).toEqual([]);
  });

  it('keeps every provider’s label on a narrow bar chart: turned and cut with an ellipsis, the whole name in the data and the text', async () => {
    await openDashboard();
    const bar = await chartOf(page, 'Net by provider');
    const fullName = `${longProvider.firstName} ${longProvider.lastName}`;
    expect(bar.categories).toContain(fullName);
    expect(bar.axisLabel).toMatchObject({ interval: 0, hideOverlap: false, overflow: 'truncate' });
    expect(bar.axisLabel.rotate).toBeGreaterThan(0);
    // One drawn label per provider, the long one cut short with an ellipsis.
    const labels = bar.svgTexts.map((t) => t.text).filter((text) => bar.categories.some((c: string) => c === text || (text.endsWith('…') && c.startsWith(text.slice(0, -1)))));
    expect(labels).toHaveLength(bar.categories.length);
    expect(labels.find((text) => fullName.startsWith(text.slice(0, -1)) && text.endsWith('…'))).toBeDefined();
    expect(bar.describedText).toContain(fullName);
    expect(problems).toEqual([]);
  });

  it('keeps a pie’s legend inside the chart, and moves it below the pie when the window narrows', async () => {
    await openDashboard();
    const wide = await chartOf(page, 'Net by payment medium');
    expect(wide.legend).toMatchObject({ orient: 'vertical', textStyle: { overflow: 'truncate' }, tooltip: { show: true } });
    // Every legend name drawn lies inside the chart: none runs past its edge.
    const outside = await page.evaluate(() => {
      const chart = [...document.querySelectorAll('.widget')].find((w: any) => w.querySelector('h2')?.textContent === 'Net by payment medium').querySelector('.chart');
      const box = chart.getBoundingClientRect();
      return [...chart.querySelectorAll('svg text')].filter((t: any) => t.getBoundingClientRect().right > box.right + 1).map((t: any) => t.textContent);
    });
    expect([wide.svgTexts.length, outside]).toEqual([expect.any(Number), []]);
    expect(wide.svgTexts.length).toBeGreaterThan(0);
    await page.setViewportSize({ width: 420, height: 1100 });
    // The chart follows its cell (a ResizeObserver) and lays its legend out again for the new width: below, in pages.
    await page.waitForFunction(() => {
      const chart = [...document.querySelectorAll('.widget')].find((w: any) => w.querySelector('h2')?.textContent === 'Net by payment medium').querySelector('.chart');
      return chart.clientWidth < 420 && (window as any).echarts.getInstanceByDom(chart).getOption().legend[0].orient === 'horizontal';
    });
    const narrow = await chartOf(page, 'Net by payment medium');
    expect(narrow.legend).toMatchObject({ type: 'scroll', bottom: 0 });
    expect((await chartOf(page, 'Lines by payment medium')).axisLabel.rotate).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it('draws in ECharts’ dark theme on a transparent background when the system is dark, and redraws when it changes', async () => {
    await openDashboard();
    const lightTexts = (await chartOf(page, 'Lines by payment medium')).svgTexts.filter((t) => t.fill);
    expect(lightTexts.length).toBeGreaterThan(0);
    expect(Math.max(...lightTexts.map((t) => luminance(t.fill)))).toBeLessThan(0.6);
    const chartIn = (name: string) => page.locator('.widget', { has: page.getByRole('heading', { name, exact: true }) }).locator('.chart');
    await chartIn('Lines by payment medium').evaluate((chart) => void (chart.dataset.before = 'light'));
    await page.emulateMedia({ colorScheme: 'dark' });
    // The change listener draws the chart again (a new chart element): its labels turn light.
    await page.waitForFunction(() => [...document.querySelectorAll('.widget .chart')].every((chart: any) => !chart.dataset.before));
    const dark = await chartOf(page, 'Lines by payment medium');
    expect(dark.backgroundColor).toBe('transparent');
    const darkTexts = dark.svgTexts.filter((t) => t.fill);
    expect(Math.min(...darkTexts.map((t) => luminance(t.fill)))).toBeGreaterThan(0.5);
    // A page opened dark draws dark from the start.
    await page.reload();
    expect((await widgetStates(page)).filter((w) => w.state !== 'drawn')).toEqual([]);
    const reopened = (await chartOf(page, 'Net by provider')).svgTexts.filter((t) => t.fill);
    expect(Math.min(...reopened.map((t) => luminance(t.fill)))).toBeGreaterThan(0.5);
    expect(problems).toEqual([]);
  });

  it('fills weeks from Monday, months and quarters by the calendar, whatever the browser’s zone (the pure functions)', async () => {
    // A zone with a DST change on 2026-03-08: a day is still one bucket.
    await page.close();
    page = await browser.newPage({ timezoneId: 'America/Los_Angeles' });
    await page.goto(`${baseUrl()}/console`);
    const checks = await page.evaluate(`(async () => {
      const t = await import('/console/js/time-series.js');
      return {
        weeks: t.bucketRun(['2025-01-13T00:00:00.000', '2024-12-23T00:00:00.000'], 'week'),
        weekOf: t.bucketStart('2026-03-08T10:00:00.000', 'week'),
        months: t.bucketRun(['2026-03-01T00:00:00.000'], 'month', { from: '2025-12-15T00:00:00.000', to: '2026-04-30T23:59:59.999' }),
        quarters: t.bucketRun(['2026-07-01T00:00:00.000', '2025-10-01T00:00:00.000'], 'quarter'),
        dst: t.bucketRun(['2026-03-07T00:00:00.000', '2026-03-10T00:00:00.000'], 'day'),
        average: [t.isAverage('revenue.averageNet', { shortTitle: 'Average Net' }), t.isAverage('revenue.netAmount', { shortTitle: 'Net Amount' })],
      };
    })()`);
    expect(checks).toEqual({
      weeks: ['2024-12-23T00:00:00.000', '2024-12-30T00:00:00.000', '2025-01-06T00:00:00.000', '2025-01-13T00:00:00.000'],
      weekOf: '2026-03-02T00:00:00.000',
      months: ['2025-12-01T00:00:00.000', '2026-01-01T00:00:00.000', '2026-02-01T00:00:00.000', '2026-03-01T00:00:00.000', '2026-04-01T00:00:00.000'],
      quarters: ['2025-10-01T00:00:00.000', '2026-01-01T00:00:00.000', '2026-04-01T00:00:00.000', '2026-07-01T00:00:00.000'],
      dst: ['2026-03-07T00:00:00.000', '2026-03-08T00:00:00.000', '2026-03-09T00:00:00.000', '2026-03-10T00:00:00.000'],
      average: [true, false],
    });
  });
});
