import { chromium, type Browser, type Page } from 'playwright-core';
import { findChromium } from '../browser/find-chromium';
import { openConsoleSignedIn } from '../browser/console-page';
import { newWatchedPage } from '../browser/session-page';
import { createDemoTenant } from '../subgraphs/analytics/revenue-kit';
import type { TestTenant } from '../utils/e2e';
import { createTestPerson } from '../utils/people';

// Functions given to page.evaluate run in the browser; `document` is the browser's there (the tests' tsconfig has no DOM lib).
declare const document: any;

const executablePath = findChromium();
const describeInBrowser = executablePath ? describe : describe.skip;

/**
 * Errors replace results (docs/console.md, Revenue explorer): a query the API refuses shows its
 * message and takes the previous query's figures, groups and lines off the screen, so that nothing
 * left there reads as the answer to the refused one.
 */
describeInBrowser(`the revenue explorer's errors in Chromium (${process.env.E2E_MODE} mode)`, () => {
  let browser: Browser;
  let page: Page;
  let demo: TestTenant;
  const problems: string[] = [];
  jest.setTimeout(90_000);

  beforeAll(async () => {
    [browser, demo] = await Promise.all([chromium.launch({ executablePath: executablePath!, headless: true, args: ['--no-sandbox'] }), createDemoTenant('Console Errors Clinic')]);
  }, 90_000);
  afterAll(() => browser?.close());

  beforeEach(async () => {
    problems.length = 0;
    ({ page } = await newWatchedPage(browser, problems, { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' }));
  });
  afterEach(() => page?.close());

  /** Submits the filters and waits for the API's answer. */
  async function apply(): Promise<void> {
    const answered = page.waitForResponse((res) => res.url().endsWith('/graphql') && (res.request().postData() ?? '').includes('query Revenue('));
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await answered;
  }
  /** What the explorer shows of a query's answer: the figures, group rows and line rows on screen. */
  const results = () =>
    page.evaluate(() => ({
      figures: document.querySelectorAll('.figures .figure').length,
      groupRows: document.querySelectorAll('section[aria-labelledby="groups-title"] .table-scroll[aria-label="Groups"] tbody tr').length,
      lineRows: document.querySelectorAll('table.lines tbody tr').length,
    }));

  it('an end date before the start date shows the message at the field, and the previous totals, groups and lines are gone', async () => {
    await openConsoleSignedIn(page, await createTestPerson(demo, 'admin'), '#/revenue');
    await page.locator('table.lines tbody tr').first().waitFor();
    await page.getByLabel('Group by').selectOption('LOCATION');
    await apply();
    await page.locator('section[aria-labelledby="groups-title"] .table-scroll[aria-label="Groups"] tbody tr').first().waitFor();
    const before = await results();
    expect(before.figures).toBe(7);
    expect(before.groupRows).toBeGreaterThan(0);
    expect(before.lineRows).toBeGreaterThan(0);

    await page.getByLabel('From').fill('2025-03-10');
    await page.getByLabel('To (inclusive)').fill('2025-03-01');
    await apply();
    await page.locator('[data-error-key="endDate"] > .field-error').filter({ hasText: 'end_date is before start_date' }).waitFor();
    expect(await results()).toEqual({ figures: 0, groupRows: 0, lineRows: 0 });
    await page.getByText('No figures: this query was refused.').waitFor();
    await page.getByText('No lines: this query was refused.').waitFor();
    expect(await page.getByRole('button', { name: /Export CSV/ }).count()).toBe(0);

    // A good query afterwards brings the results back, and the message goes.
    await page.getByLabel('To (inclusive)').fill('');
    await apply();
    await page.locator('table.lines tbody tr').first().waitFor();
    expect((await results()).figures).toBe(7);
    expect(await page.locator('[data-error-key="endDate"] > .field-error').isHidden()).toBe(true);
    // The refusal's 422 was deliberate.
    expect(problems.filter((problem) => !/status of 422/.test(problem))).toEqual([]);
  });

  it('a time zone the API does not know is refused the same way: message shown, old results gone', async () => {
    await openConsoleSignedIn(page, await createTestPerson(demo, 'admin'), '#/revenue');
    await page.locator('table.lines tbody tr').first().waitFor();
    // The picker offers only real zones; a stale or hand-edited one is what reaches the API in practice.
    await page.getByLabel('Time zone').evaluate((select) => select.append(Object.assign(document.createElement('option'), { value: 'Mars/Olympus_Mons', textContent: 'Mars/Olympus_Mons' })));
    await page.getByLabel('Time zone').selectOption('Mars/Olympus_Mons');
    await apply();
    await page.getByText('No lines: this query was refused.').waitFor();
    expect(await results()).toEqual({ figures: 0, groupRows: 0, lineRows: 0 });
    const shown = await page.evaluate(() => [...document.querySelectorAll('.field-error:not([hidden]), .error-box:not([hidden])')].map((el) => el.textContent).join(' '));
    expect(shown).toMatch(/time ?zone/i);
    expect(problems.filter((problem) => !/status of 422/.test(problem))).toEqual([]);
  });
});
