import { readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findChromium } from '../browser/find-chromium';
import { openConsoleSignedIn, widgetContent, widgetStates } from '../browser/console-page';
import { newWatchedPage } from '../browser/session-page';
import { createDemoTenant } from '../subgraphs/analytics/revenue-kit';
import type { TestTenant } from '../utils/e2e';
import { createTestPerson, type TestPerson } from '../utils/people';
import { eventually } from '../utils/eventually';

// Functions given to page.evaluate run in the browser; these names are the browser's there (the tests' tsconfig has no DOM lib).
declare const document: any, window: any, location: any;
declare type HTMLElement = any;

const executablePath = findChromium();
const describeInBrowser = executablePath ? describe : describe.skip;

/** The GraphQL operations a page sent, read from their bodies (query text and variables). */
type Sent = { query: string; variables: Record<string, any> };

describeInBrowser(`dashboards managed in the console (issue 34; ${process.env.E2E_MODE} mode)`, () => {
  let browser: Browser;
  let page: Page;
  let demo: TestTenant;
  let analyst: TestPerson;
  let admin: TestPerson;
  let operations: Sent[];
  const problems: string[] = [];
  jest.setTimeout(120_000);

  beforeAll(async () => {
    [browser, demo] = await Promise.all([chromium.launch({ executablePath: executablePath!, headless: true, args: ['--no-sandbox'] }), createDemoTenant('Console Dashboards Clinic')]);
    [analyst, admin] = await Promise.all([createTestPerson(demo, 'analyst'), createTestPerson(demo, 'admin')]);
  }, 120_000);
  afterAll(() => browser?.close());

  beforeEach(async () => {
    problems.length = 0;
    page = await watched();
  });
  afterEach(() => page?.close());

  async function watched(): Promise<Page> {
    const { page: opened } = await newWatchedPage(browser, problems, { viewport: { width: 1366, height: 900 }, reducedMotion: 'reduce', acceptDownloads: true });
    operations = [];
    opened.on('request', (req) => {
      if (req.url().endsWith('/graphql') && req.method() === 'POST') operations.push(JSON.parse(req.postData() ?? '{}'));
    });
    return opened;
  }

  const gql = async (query: string, variables?: Record<string, unknown>) => {
    const { body } = await demo.graphql(query, variables);
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
  const dashboardNamed = async (name: string) => (await gql('query($n: String) { dashboards(name: $n, first: 100) { nodes { id name description widgets { id name } } } }', { n: name })).dashboards.nodes.filter((d: { name: string }) => d.name === name);
  const sentNamed = (word: string) => operations.filter((o) => o.query.includes(word));
  const undoMessage = () => page.locator('.undo-message');

  /** A new dashboard of the demo tenant with `widgets`; answers its id. */
  async function dashboardWith(widgets: { name: string; chartType: string; query: Record<string, unknown> }[]): Promise<string> {
    const { createDashboard } = await gql('mutation($i: CreateDashboardInput!) { createDashboard(input: $i) { id } }', { i: { name: `Board ${Math.random().toString(36).slice(2, 8)}` } });
    for (const [i, widget] of widgets.entries()) await gql('mutation($i: CreateWidgetInput!) { createWidget(input: $i) { id } }', { i: { ...widget, dashboardId: createDashboard.id, position: { x: 0, y: i * 4, w: 6, h: 4 } } });
    return createDashboard.id;
  }

  it('creates, renames and deletes a dashboard; Undo keeps it, and leaving the page sends the delete', async () => {
    // No long run of digits: the API refuses text that could be a card number (a Luhn-valid Date.now() is one).
    const name = `Front desk ${Math.random().toString(36).slice(2, 8)}`;
    await openConsoleSignedIn(page, analyst);
    await page.getByLabel('Dashboard name').fill(name);
    await page.getByLabel('Description').fill('Daily figures');
    await page.getByRole('button', { name: 'Create dashboard' }).click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    expect(await dashboardNamed(name)).toEqual([expect.objectContaining({ name, description: 'Daily figures', widgets: [] })]);

    const renamed = `${name} (renamed)`;
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('Dashboard name').fill(renamed);
    await page.getByLabel('Description').fill('Figures of the day');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('heading', { name: renamed, level: 1 }).waitFor();
    const [saved] = await dashboardNamed(renamed);
    expect(saved).toMatchObject({ name: renamed, description: 'Figures of the day' });

    // Deleted: gone from the list at once, with Undo offered; Undo brings it back, and no delete was ever sent.
    await page.getByRole('button', { name: 'Delete dashboard' }).click();
    await page.getByRole('heading', { name: 'Dashboards', level: 1 }).waitFor();
    await expect(undoMessage().innerText()).resolves.toContain(`Dashboard “${renamed}” deleted.`);
    await page.getByRole('link', { name: 'Revenue overview' }).waitFor();
    expect(await page.getByRole('link', { name: renamed }).count()).toBe(0);
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('heading', { name: renamed, level: 1 }).waitFor();
    expect(await undoMessage().count()).toBe(0);
    expect(sentNamed('deleteDashboard')).toEqual([]);
    expect(await dashboardNamed(renamed)).toHaveLength(1);

    // Deleted again, and the page left inside the undo window: the delete goes as the page goes.
    await page.getByRole('button', { name: 'Delete dashboard' }).click();
    await undoMessage().waitFor();
    await page.goto('about:blank');
    // A delete sent as the page goes away arrives a moment later.
    expect(await eventually(async () => (await dashboardNamed(renamed)).length === 0, { intervalMs: 200 })).toBe(true);
    expect(problems).toEqual([]);
  });

  it('deletes a widget with Undo (kept) and without (deleted when the undo window closes)', async () => {
    const id = await dashboardWith([
      { name: 'Sales count', chartType: 'KPI', query: { measures: ['revenue.count'] } },
      { name: 'Net by location', chartType: 'BAR', query: { measures: ['revenue.netAmount'], dimensions: ['revenue.location'] } },
    ]);
    const widgetsOf = async () => (await gql('query($id: ID!) { dashboard(id: $id) { widgets { name } } }', { id })).dashboard.widgets.map((w: { name: string }) => w.name).sort();
    await openConsoleSignedIn(page, analyst, `#/dashboards/${id}`);
    await widgetStates(page);
    const widget = page.locator('.widget', { has: page.getByRole('heading', { name: 'Sales count' }) });
    await page.getByRole('button', { name: 'Delete Sales count' }).click();
    await expect(widget.isHidden()).resolves.toBe(true);
    // Focus leaves the hidden button for Undo, and comes back to the widget when undone.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Undo');
    await page.keyboard.press('Enter');
    await widget.waitFor({ state: 'visible' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Delete Sales count');
    expect(sentNamed('deleteWidget')).toEqual([]);
    expect(await widgetsOf()).toEqual(['Net by location', 'Sales count']);

    await page.getByRole('button', { name: 'Delete Sales count' }).click();
    await expect(undoMessage().innerText()).resolves.toContain('Widget “Sales count” deleted.');
    // The message goes when its window closes, and the delete is sent then.
    await undoMessage().waitFor({ state: 'detached', timeout: 20_000 });
    expect(await eventually(async () => (await widgetsOf()).length === 1, { intervalMs: 200 })).toBe(true);
    expect(await widgetsOf()).toEqual(['Net by location']);
    expect(sentNamed('deleteWidget')).toHaveLength(1);
    await page.reload();
    expect((await widgetStates(page)).map((w) => w.name)).toEqual(['Net by location']);
    // Signing out inside the undo window sends the delete first: the session that could send it is about to end.
    await page.getByRole('button', { name: 'Delete Net by location' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await widgetsOf()).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('asks before leaving the composer or the rename form with unsaved changes, and not without', async () => {
    const id = await dashboardWith([{ name: 'Sales count', chartType: 'KPI', query: { measures: ['revenue.count'] } }]);
    const { name: board, widgets } = (await gql('query($id: ID!) { dashboard(id: $id) { name widgets { id } } }', { id })).dashboard;
    const widgetId = widgets[0].id;
    // The dashboard drawn (its own heading, not the loading one's "Dashboard").
    const onDashboard = () => page.getByRole('heading', { level: 1, name: board, exact: true }).waitFor();
    const dialogs: string[] = [];
    let answer = false;
    // Headless Chromium closed by Playwright shows no beforeunload dialog: what is checked is whether the page's listener cancels the event.
    const unloadCancelled = () => page.evaluate(() => {
      const event = new window.Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    });
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.type());
      void (answer ? dialog.accept() : dialog.dismiss());
    });
    await openConsoleSignedIn(page, analyst, `#/widgets/${widgetId}/edit`);
    await page.getByRole('group', { name: 'Measures' }).waitFor();
    expect(await unloadCancelled()).toBe(false);
    await page.getByRole('link', { name: 'Cancel' }).click();
    await onDashboard();
    expect(dialogs).toEqual([]);

    await page.evaluate((hash) => void (location.hash = hash), `#/widgets/${widgetId}/edit`);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Sales count, renamed');
    const asked = page.waitForEvent('dialog');
    await page.getByRole('link', { name: 'Cancel' }).click();
    expect((await asked).message()).toContain('unsaved changes');
    // Staying: the composer, its change and its address are kept.
    await page.waitForFunction((hash) => location.hash === hash, `#/widgets/${widgetId}/edit`);
    expect(dialogs).toEqual(['confirm']);
    await expect(page.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).resolves.toBe('Sales count, renamed');
    // Closing or reloading the page asks too: the page's beforeunload listener cancels the event.
    expect(await unloadCancelled()).toBe(true);
    answer = true;
    await page.getByRole('link', { name: 'Cancel' }).click();
    await onDashboard();
    expect(dialogs).toEqual(['confirm', 'confirm']);
    expect(await unloadCancelled()).toBe(false);
    // The rename form asks too.
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('Dashboard name').fill('Another name');
    expect(await unloadCancelled()).toBe(true);
    await page.getByRole('link', { name: 'Dashboards', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Dashboards', level: 1 }).waitFor();
    expect(dialogs).toEqual(['confirm', 'confirm', 'confirm']);
    expect((await gql('query($id: ID!) { widget(id: $id) { name } }', { id: widgetId })).widget.name).toBe('Sales count');
    expect(problems).toEqual([]);
  });

  it('applies a date range and a location to every widget, keeps them in the URL, and the link shows another person the same', async () => {
    const overview = (await dashboardNamed('Revenue overview'))[0];
    const { timezone } = (await gql('{ publicTenant { timezone } }')).publicTenant;
    await openConsoleSignedIn(page, analyst, `#/dashboards/${overview.id}`);
    await widgetStates(page);
    const picker = page.getByLabel('Location', { exact: true });
    const locationId = (await picker.locator('option').nth(1).getAttribute('value'))!;
    await picker.selectOption(locationId);
    await widgetStates(page);
    operations.length = 0;
    await page.getByLabel('Date range').selectOption('last 30 days');
    const states = await widgetStates(page);
    expect(states.filter((w) => w.state !== 'drawn')).toEqual([]);

    // Each widget's query, as sent, carries the range on its time dimension (added where it had none) and the location.
    const runs = sentNamed('executeAnalyticsQuery').map((o) => o.variables.query);
    expect(runs).toHaveLength(overview.widgets.length);
    for (const query of runs) {
      expect(query.timeDimensions.map((t: { dateRange: unknown }) => t.dateRange)).toEqual(query.timeDimensions.map(() => 'last 30 days'));
      expect(query.filters).toContainEqual({ member: 'revenue.locationId', operator: 'equals', values: [locationId] });
    }
    await page.getByLabel('Auto-refresh').selectOption('5');
    const hash = await page.evaluate(() => location.hash);
    expect(Object.fromEntries(new URLSearchParams(hash.split('?')[1]))).toEqual({ location: locationId, range: 'last 30 days', refresh: '5' });

    // The KPI agrees with the API's answer for the same range, location and zone.
    const { executeAnalyticsQuery } = await gql('query($q: JSON!) { executeAnalyticsQuery(query: $q) { data } }', {
      q: { measures: ['revenue.count'], timeDimensions: [{ dimension: 'revenue.createdAt', dateRange: 'last 30 days' }], filters: [{ member: 'revenue.locationId', operator: 'equals', values: [locationId] }], timezone },
    });
    const count = Number(executeAnalyticsQuery.data[0]?.['revenue.count'] ?? 0);
    const kpi = await widgetContent(page, 'Sales this month');
    expect(kpi.text.split('\n')[0]).toBe(count.toLocaleString('en-US'));

    // Another person of the tenant opens the link: the same controls, the same figures.
    const other = await watched();
    try {
      await openConsoleSignedIn(other, admin, hash);
      await widgetStates(other);
      await expect(other.getByLabel('Location', { exact: true }).inputValue()).resolves.toBe(locationId);
      await expect(other.getByLabel('Date range').inputValue()).resolves.toBe('last 30 days');
      await expect(other.getByLabel('Auto-refresh').inputValue()).resolves.toBe('5');
      for (const name of ['Sales this month', 'Net revenue this year', 'Net revenue by location']) {
        const [mine, theirs] = [await widgetContent(page, name), await widgetContent(other, name)];
        expect([name, theirs.text, theirs.series]).toEqual([name, mine.text, mine.series]);
      }
    } finally {
      await other.close();
    }

    // Year to date goes as explicit dates in each widget's zone; custom dates as typed, and into the URL.
    const rangesSent = () => sentNamed('executeAnalyticsQuery').map((o) => o.variables.query.timeDimensions.map((t: { dateRange: unknown }) => t.dateRange));
    operations.length = 0;
    await page.getByLabel('Date range').selectOption('year to date');
    await widgetStates(page);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: timezone }).format(new Date());
    expect(new Set(rangesSent().flat().map((r) => JSON.stringify(r)))).toEqual(new Set([JSON.stringify([`${today.slice(0, 4)}-01-01`, today])]));
    operations.length = 0;
    await page.getByLabel('Date range').selectOption('custom');
    await page.getByLabel('From').fill('2026-01-05');
    await page.getByLabel('To (inclusive)').fill('2026-02-20');
    await page.waitForFunction(() => location.hash.includes('to=2026-02-20'));
    await widgetStates(page);
    expect(new Set(rangesSent().flat().map((r) => JSON.stringify(r)))).toEqual(new Set([JSON.stringify(['2026-01-05', '2026-02-20'])]));
    const custom = new URLSearchParams((await page.evaluate(() => location.hash)).split('?')[1]);
    expect([custom.get('range'), custom.get('from'), custom.get('to')]).toEqual(['custom', '2026-01-05', '2026-02-20']);
    expect(problems).toEqual([]);
  });

  it('shows each widget’s time zone, and a clicked bar opens the revenue explorer on its lines', async () => {
    const overview = (await dashboardNamed('Revenue overview'))[0];
    const saved = (await gql('query($id: ID!) { dashboard(id: $id) { widgets { name query } } }', { id: overview.id })).dashboard.widgets;
    await openConsoleSignedIn(page, analyst, `#/dashboards/${overview.id}?range=this+quarter`);
    await widgetStates(page);
    const zones = await page.$$eval('.widget', (widgets) => widgets.map((w: HTMLElement) => [w.querySelector('h2').textContent, w.querySelector('.widget-zone').textContent]));
    expect(Object.fromEntries(zones)).toEqual(Object.fromEntries(saved.map((w: { name: string; query: { timezone: string } }) => [w.name, `Times in ${w.query.timezone}`])));

    // A chart widget saves as a PNG named after it; a KPI has no such button (it is text already).
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download Net revenue by location as PNG' }).click();
    const file = await downloaded;
    expect(file.suggestedFilename()).toBe('Net-revenue-by-location.png');
    const bytes = readFileSync(await file.path());
    expect([...bytes.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(bytes.length).toBeGreaterThan(5_000);
    expect(await page.getByRole('button', { name: 'Download Net revenue this year as PNG' }).count()).toBe(0);

    // The tallest bar of "Net revenue by location": click its middle.
    const target = await page.evaluate(() => {
      const widget = [...document.querySelectorAll('.widget')].find((w) => w.querySelector('h2')?.textContent === 'Net revenue by location');
      const element = widget.querySelector('.chart');
      const chart = (window as any).echarts.getInstanceByDom(element);
      const option = chart.getOption();
      const values: number[] = option.series[0].data;
      const index = values.indexOf(Math.max(...values));
      const [x, y] = chart.convertToPixel({ seriesIndex: 0 }, [index, values[index] / 2]);
      const box = element.getBoundingClientRect();
      return { x: box.left + x, y: box.top + y, label: option.xAxis[0].data[index] };
    });
    await page.mouse.click(target.x, target.y);
    await page.waitForFunction(() => location.hash.startsWith('#/revenue?'));
    const params = new URLSearchParams((await page.evaluate(() => location.hash)).split('?')[1]);
    const zone = saved.find((w: { name: string }) => w.name === 'Net revenue by location').query.timezone;
    // This quarter, in the widget's zone: from its first day to its last.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
    const month = Number(today.slice(5, 7));
    const first = `${today.slice(0, 4)}-${String(month - ((month - 1) % 3)).padStart(2, '0')}-01`;
    expect(params.getAll('locationNames')).toEqual([target.label]);
    expect(params.get('timezone')).toBe(zone);
    const last = new Date(Date.UTC(Number(today.slice(0, 4)), Number(first.slice(5, 7)) + 2, 0)).toISOString().slice(0, 10);
    expect([params.get('startDate'), params.get('endDate')]).toEqual([first, last]);
    expect(problems).toEqual([]);
  });

  it('maps picked members, time buckets and equals filters to explorer filters, and names what it cannot map', async () => {
    await openConsoleSignedIn(page, analyst);
    // A string, not a function: jest's compiler would turn import() into require().
    const mapped = await page.evaluate(`(async () => {
      const { drillDownView } = await import('/console/js/drill-down.js');
      const query = { timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'week', dateRange: ['2026-03-01', '2026-03-31'] }],
        filters: [{ member: 'revenue.paymentMedium', operator: 'equals', values: ['card'] }, { member: 'revenue.source', operator: 'equals', values: ['import'] }, { member: 'revenue.netAmount', operator: 'gt', values: ['0'] }] };
      return drillDownView({ 'revenue.provider': 'Dr. Ada', 'revenue.createdAt.week': '2026-02-23T00:00:00.000' }, query, 'Europe/Paris');
    })()`);
    // The week of Monday 23 February, cut to the widget's range (from 1 March).
    expect(mapped).toEqual({
      view: { timezone: 'Europe/Paris', providerNames: ['Dr. Ada'], paymentMediums: ['card'], startDate: '2026-03-01', endDate: '2026-03-01' },
      unmapped: ['the filter revenue.source equals import', 'the filter revenue.netAmount gt 0'],
    });
  });
});
