import type { Browser, Page } from 'playwright-core';
import { baseUrl } from '../utils/e2e';
import { SESSION_COOKIE, type TestPerson } from '../utils/people';

// Functions given to page.evaluate run in the browser; these names are the browser's there (the tests' tsconfig has no DOM lib).
declare const document: any, window: any, localStorage: any, sessionStorage: any, location: any;
declare type HTMLElement = any;
declare type HTMLInputElement = any;
declare type HTMLOptionElement = any;

/** What a sign-in form is given: the person's tenant id, e-mail and password (another one to try a wrong one), and a code if asked. */
export type Credentials = Pick<TestPerson, 'tenantId' | 'email' | 'password'> & { code?: string };

/**
 * A page for a browser test that collects `problems` (a script error, a script the CSP blocks, a
 * failed request but the deliberate 401, 403 and 429) and every request the page sends, to check
 * that none carries an API key.
 */
export async function newWatchedPage(browser: Browser, problems: string[], options: Parameters<Browser['newPage']>[0] = {}): Promise<{ page: Page; sent: { url: string; method: string; headers: Record<string, string> }[] }> {
  const page = await browser.newPage(options);
  const sent: { url: string; method: string; headers: Record<string, string> }[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // The browser's own favicon request is the JSON 404 of any unknown path.
    const where = message.location().url;
    if (message.type() === 'error' && !/status of (401|403|429)/.test(message.text()) && !where.endsWith('/favicon.ico')) problems.push(`console: ${message.text()} (${where})`);
  });
  page.on('request', (req) => void sent.push({ url: req.url(), method: req.method(), headers: req.headers() }));
  return { page, sent };
}

/** Opens the console (at `hash`, if given) and signs in as a person would, typing tenant id, e-mail and password. */
export async function openConsoleSignedIn(page: Page, person: Credentials, hash = ''): Promise<void> {
  await page.goto(`${baseUrl()}/console${hash}`);
  await signIn(page, person);
  await page.locator('#session').waitFor({ state: 'visible' });
}

/** Types tenant id, e-mail, password (and the two-factor code, when given) into the sign-in form and submits it. */
export async function signIn(page: Page, person: Credentials): Promise<void> {
  await page.getByLabel('Tenant id').fill(person.tenantId);
  await page.getByLabel('E-mail').fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  if (person.code !== undefined) await page.getByLabel('Two-factor code').fill(person.code);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The session cookie the browser holds for the server, with its flags; null when it holds none. */
export async function sessionCookie(page: Page): Promise<{ value: string; httpOnly: boolean; secure: boolean; sameSite: string } | null> {
  const found = (await page.context().cookies(baseUrl())).find((cookie) => cookie.name === SESSION_COOKIE);
  return found ? { value: found.value, httpOnly: found.httpOnly, secure: found.secure, sameSite: found.sameSite } : null;
}

/** Waits until every widget of the open dashboard is drawn or failed; answers their states. */
export async function widgetStates(page: Page): Promise<{ name: string; chartType: string; state: string }[]> {
  await page.locator('.widget').first().waitFor();
  await page.waitForFunction(() => [...document.querySelectorAll('.widget')].every((w: HTMLElement) => w.dataset.state === 'drawn' || w.dataset.state === 'error'), undefined, { timeout: 20_000 });
  return page.$$eval('.widget', (widgets) => widgets.map((w) => ({ name: w.querySelector('h2')!.textContent!, chartType: (w as HTMLElement).dataset.chartType!, state: (w as HTMLElement).dataset.state! })));
}

/** What a widget shows, read from the page: ECharts' series data and the SVG marks drawn, or a table's rows, or a KPI's text. */
export function widgetContent(page: Page, name: string): Promise<{ series: unknown[][] | null; marks: number; rows: number; text: string }> {
  return page.evaluate((widgetName) => {
    const widget = [...document.querySelectorAll('.widget')].find((w) => w.querySelector('h2')?.textContent === widgetName)!;
    const chart = widget.querySelector('.chart');
    const echarts = (window as any).echarts;
    const option = chart ? echarts.getInstanceByDom(chart).getOption() : null;
    return {
      series: option ? option.series.map((s: { data: unknown[] }) => s.data) : null,
      // Bars, slices, lines and areas are <path>s in ECharts' SVG renderer; axes and grid lines are too, so callers compare with the data.
      marks: chart ? chart.querySelectorAll('svg path').length : 0,
      rows: widget.querySelectorAll('tbody tr').length,
      text: (widget.querySelector('.widget-body') as HTMLElement).innerText,
    };
  }, name);
}
