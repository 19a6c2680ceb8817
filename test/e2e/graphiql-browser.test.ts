import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { findChromium } from '../browser/find-chromium';
import { openConsoleSignedIn } from '../browser/console-page';
import { newWatchedPage, sessionCookie, signIn } from '../browser/session-page';
import { baseUrl, createTestTenant, request } from '../utils/e2e';
import { createLegacyTemplate } from '../utils/notes';
import { createTestPerson, SESSION_COOKIE, sessionStatus } from '../utils/people';

const executablePath = findChromium();
const describeInBrowser = executablePath ? describe : describe.skip;

/** Replaces a GraphiQL (CodeMirror) editor's text the way a paste would: no auto-closed brackets, no hint popup. */
async function fill(page: Page, editor: Locator, text: string): Promise<void> {
  await editor.locator('.CodeMirror').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
}

/** Waits until the result pane shows `text`, then returns everything it shows. */
async function resultShowing(page: Page, text: string): Promise<string> {
  const pane = page.getByLabel('Result Window');
  await pane.getByText(text).first().waitFor({ timeout: 20_000 });
  return pane.innerText();
}

/**
 * GraphiQL signs people in with the session of docs/access.md (docs/graphiql.md): its own form, or
 * the console's cookie; every request is same-origin with the cookie and the CSRF token, and no test
 * types an API key (the tenants' keys only invite the people, through /graphql).
 */
describeInBrowser(`GraphiQL in Chromium (${process.env.E2E_MODE} mode)`, () => {
  let browser: Browser;
  let page: Page;
  let sent: Awaited<ReturnType<typeof newWatchedPage>>['sent'];
  const problems: string[] = [];
  jest.setTimeout(150_000);

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: executablePath!, headless: true, args: ['--no-sandbox'] });
  });
  afterAll(() => browser?.close());

  beforeEach(async () => {
    problems.length = 0;
    ({ page, sent } = await newWatchedPage(browser, problems, { viewport: { width: 1280, height: 720 } }));
  });
  afterEach(() => page?.close());

  /** No request carried a key or a TENANT header; every POST but the sign-in carried the CSRF token. */
  function expectSessionRequestsOnly(): void {
    expect(sent.filter((req) => req.headers['api-key'] || req.headers.tenant)).toEqual([]);
    expect(sent.filter((req) => req.method === 'POST' && !req.url.endsWith('/auth/sign-in') && !/^[A-Za-z0-9_-]{43}$/.test(req.headers['x-csrf-token'] ?? '')).map((req) => req.url)).toEqual([]);
  }

  it('asks a person to sign in, refuses a wrong password, then runs a query as them, schema included, and stays signed in after a reload', async () => {
    const tenant = await createTestTenant('GraphiQL Browser Clinic');
    const person = await createTestPerson(tenant, 'admin');
    await page.goto(`${baseUrl()}/graphql`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.locator('#graphiql').isHidden()).toBe(true);
    await signIn(page, { ...person, password: 'not the password at all' });
    await page.getByRole('alert').filter({ hasText: 'e-mail or password was not accepted' }).waitFor();
    expect(sent.filter((req) => req.url.startsWith(`${baseUrl()}/graphql`) && req.method === 'POST')).toEqual([]);

    await signIn(page, person);
    await page.locator('.graphiql-execute-button').waitFor();
    await expect(page.locator('#who').innerText()).resolves.toBe(`Signed in to tenant ${tenant.tenantId} as admin`);
    expect(await sessionCookie(page)).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict' });
    await fill(page, page.getByLabel('Query Editor'), '{ publicTenant { id name } }');
    const query = page.waitForRequest((req) => req.url() === `${baseUrl()}/graphql` && req.method() === 'POST' && (req.postData() ?? '').includes('publicTenant'));
    await page.locator('.graphiql-execute-button').click();
    expect((await query).headers()['x-csrf-token']).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await resultShowing(page, 'GraphiQL Browser Clinic')).toContain(tenant.tenantId);
    // For docs/graphiql.md (GRAPHIQL_SCREENSHOT=docs/graphiql.png).
    if (process.env.GRAPHIQL_SCREENSHOT) await page.screenshot({ path: process.env.GRAPHIQL_SCREENSHOT });
    // The schema came through the session when GraphiQL opened: no refresh needed.
    await page.getByLabel('Show Documentation Explorer').click();
    await page.locator('.graphiql-doc-explorer').getByText('publicTenant').first().waitFor();

    await page.reload();
    await page.locator('.graphiql-execute-button').waitFor();
    expect(await page.locator('#sign-in').isHidden()).toBe(true);
    expectSessionRequestsOnly();
    expect(problems).toEqual([]);
  });

  it('runs the migrateTemplateQuestion subscription over /graphql/stream with the session and shows its events', async () => {
    const tenant = await createTestTenant('GraphiQL Stream Clinic');
    const template = await createLegacyTemplate(tenant);
    await page.goto(`${baseUrl()}/graphql`);
    await signIn(page, await createTestPerson(tenant, 'clinician'));
    await page.locator('.graphiql-execute-button').waitFor();
    await fill(
      page,
      page.getByLabel('Query Editor'),
      `subscription { migrateTemplateQuestion(templateId: "${template.templateId}", questionId: "${template.legacyQuestionId}") { type index count } }`,
    );
    const stream = page.waitForRequest((req) => req.url().startsWith(`${baseUrl()}/graphql/stream`));
    await page.locator('.graphiql-execute-button').click();
    expect((await stream).headers()['x-csrf-token']).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The pane shows the latest event; the stream ends with `done`.
    const shown = await resultShowing(page, '"done"');
    expect(shown).toContain('migrateTemplateQuestion');
    expectSessionRequestsOnly();
    expect(problems).toEqual([]);
  });

  it('signed in at the console is signed in here too; an analyst is told which scope a query lacks', async () => {
    const tenant = await createTestTenant('GraphiQL Analyst Clinic');
    await openConsoleSignedIn(page, await createTestPerson(tenant, 'analyst'));
    await page.goto(`${baseUrl()}/graphql`);
    await page.locator('.graphiql-execute-button').waitFor();
    await expect(page.locator('#who').innerText()).resolves.toMatch(/ as analyst$/);
    await fill(page, page.getByLabel('Query Editor'), '{ patients { totalCount } }');
    await page.locator('.graphiql-execute-button').click();
    expect(await resultShowing(page, 'Missing scope')).toContain('"scope": "patients:read"');
    expectSessionRequestsOnly();
    expect(problems).toEqual([]);
  });

  it('a session ended elsewhere: the next query says so and brings the form back; the same person signing in again finds the tabs', async () => {
    const tenant = await createTestTenant('GraphiQL Expiry Clinic');
    const person = await createTestPerson(tenant, 'analyst');
    await page.goto(`${baseUrl()}/graphql`);
    await signIn(page, person);
    await page.locator('.graphiql-execute-button').waitFor();
    await fill(page, page.getByLabel('Query Editor'), '{ publicTenant { name } } # kept for its author');
    // The session ends on the server (signed out from elsewhere, as another tab would).
    const { value } = (await sessionCookie(page))!;
    const cookie = `${SESSION_COOKIE}=${value}`;
    const { body } = await request(`${baseUrl()}/auth/session`, { headers: { cookie } });
    expect((await request(`${baseUrl()}/auth/sign-out`, { method: 'POST', headers: { cookie, 'x-csrf-token': body.csrfToken } })).status).toBe(204);
    await page.locator('.graphiql-execute-button').click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.locator('#sign-in-error').filter({ hasText: /^Your session has ended/ }).waitFor();
    await signIn(page, person);
    await page.locator('.graphiql-execute-button').waitFor();
    await expect(page.getByLabel('Query Editor').innerText()).resolves.toContain('kept for its author');
    expectSessionRequestsOnly();
    expect(problems).toEqual([]);
  });

  it('keeps no query text in storage or IndexedDB; signing out ends the session, shows the form and forgets the tabs', async () => {
    const tenant = await createTestTenant('GraphiQL Storage Clinic');
    const person = await createTestPerson(tenant, 'admin');
    const query = '{ publicTenant { id name } } # patient Jane Storage-Probe';
    await page.goto(`${baseUrl()}/graphql`);
    await signIn(page, person);
    await page.locator('.graphiql-execute-button').waitFor();
    await fill(page, page.getByLabel('Query Editor'), query);
    await page.locator('.graphiql-execute-button').click();
    await resultShowing(page, 'GraphiQL Storage Clinic');
    // A second tab and a history entry: what GraphiQL writes to its storage.
    await page.getByLabel('Add tab').click();
    const stored = () =>
      page.evaluate(async () => {
        const dump = (storage: Storage) => Array.from({ length: storage.length }, (_, i) => `${storage.key(i)}=${storage.getItem(storage.key(i)!)}`).join('\n');
        // The test's types are Node's, which know Web Storage but not IndexedDB.
        const idb = (globalThis as unknown as { indexedDB: { databases?: () => Promise<{ name?: string }[]> } }).indexedDB;
        const databases = idb.databases ? (await idb.databases()).map((db) => db.name ?? '') : [];
        return { local: dump(localStorage), session: dump(sessionStorage), databases };
      });
    for (const snapshot of [await stored(), await page.reload().then(() => page.locator('.graphiql-execute-button').waitFor()).then(stored)]) {
      expect(snapshot.databases).toEqual([]);
      for (const text of [snapshot.local, snapshot.session]) {
        expect(text).not.toContain(tenant.tenantId);
        expect(text).not.toContain('Storage-Probe');
      }
    }
    // After the reload (still signed in), the editors start from their defaults: the query did not come back.
    expect(await page.getByLabel('Query Editor').innerText()).not.toContain('Storage-Probe');

    await fill(page, page.getByLabel('Query Editor'), query);
    const cookie = await sessionCookie(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.locator('#graphiql').isHidden()).toBe(true);
    expect(await sessionCookie(page)).toBeNull();
    expect(await sessionStatus(cookie!.value)).toBe(401);
    // The next person to sign in at this page does not find the query.
    await signIn(page, await createTestPerson(tenant, 'analyst'));
    await page.locator('.graphiql-execute-button').waitFor();
    expect(await page.getByLabel('Query Editor').innerText()).not.toContain('Storage-Probe');
    expectSessionRequestsOnly();
    expect(problems).toEqual([]);
  });
});
