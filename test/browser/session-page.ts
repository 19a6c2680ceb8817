import type { Browser, Page } from 'playwright-core';
import { baseUrl } from '../utils/e2e';
import { SESSION_COOKIE, type TestPerson } from '../utils/people';

// What the console's and GraphiQL's browser tests share: both pages sign people in with the same
// form (the same labels) and the same session cookie.

/** What a sign-in form is given: the person's tenant id, e-mail and password (another one to try a wrong one), and a code if asked. */
export type Credentials = Pick<TestPerson, 'tenantId' | 'email' | 'password'> & { code?: string };

/**
 * A page for a browser test that collects `problems` (a script error, a script the CSP blocks, a
 * failed request but the deliberate 401, 403 and 429) and every request the page sends, to check
 * that none carries an API key.
 */
export async function newWatchedPage(browser: Browser, problems: string[], options: Parameters<Browser['newPage']>[0] = {}): Promise<{ page: Page; sent: { url: string; method: string; headers: Record<string, string> }[] }> {
  // A context of its own, not browser.newPage()'s: axe-core (test/browser/accessibility.ts) opens a second page in it. It closes with the page.
  const context = await browser.newContext(options);
  const page = await context.newPage();
  // Closing a context the browser is already closing (afterAll) rejects: that is no test's failure.
  page.once('close', () => void context.close().catch(() => undefined));
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

/**
 * How long the sign-in form may take to appear: the page shows it once its `GET /auth/session` is
 * answered, which on a two-core machine loaded by the other suites' servers has taken over 30 s.
 */
const FORM_LIMIT_MS = 75_000;

/** Types tenant id, e-mail, password (and the two-factor code, when given) into the page's sign-in form (the console's or GraphiQL's) and submits it. */
export async function signIn(page: Page, person: Credentials): Promise<void> {
  await page
    .getByLabel('Tenant id')
    .waitFor({ timeout: FORM_LIMIT_MS })
    .catch(async (error: Error) => {
      // What the page shows instead says where it waits (a view still loading, an error box).
      const shown = await page.locator('body').innerText({ timeout: 1_000 }).catch(() => '(unreadable)');
      throw new Error(`${error.message}\nno sign-in form at ${page.url()}; the page shows:\n${shown.slice(0, 500)}`);
    });
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
