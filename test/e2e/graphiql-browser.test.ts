import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { findChromium } from '../browser/find-chromium';
import { baseUrl, createTestTenant } from '../utils/e2e';
import { createLegacyTemplate } from '../utils/notes';

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

describeInBrowser(`GraphiQL in Chromium (${process.env.E2E_MODE} mode)`, () => {
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  jest.setTimeout(60_000);

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: executablePath!, headless: true, args: ['--no-sandbox'] });
  });
  afterAll(() => browser?.close());

  beforeEach(async () => {
    problems.length = 0;
    page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    // A script the CSP blocks, or one that throws, is a console error or a page error.
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // The browser's own favicon request is the JSON 404 of any unknown path.
      const where = message.location().url;
      if (message.type() === 'error' && !where.endsWith('/favicon.ico')) problems.push(`console: ${message.text()} (${where})`);
    });
    await page.goto(`${baseUrl()}/graphql`);
    await page.locator('.graphiql-execute-button').waitFor();
  });
  afterEach(() => page?.close());

  it('runs a query with the TENANT and API-KEY typed in the headers editor and shows its result', async () => {
    const tenant = await createTestTenant('GraphiQL Browser Clinic');
    await fill(page, page.locator('.graphiql-editor-tool .graphiql-editor:not(.hidden)'), JSON.stringify(tenant.headers, null, 2));
    await fill(page, page.getByLabel('Query Editor'), '{ publicTenant { id name } }');
    const sent = page.waitForRequest((req) => req.url() === `${baseUrl()}/graphql` && req.method() === 'POST');
    await page.locator('.graphiql-execute-button').click();
    expect((await sent).headers()).toMatchObject({ tenant: tenant.tenantId, 'api-key': tenant.apiKey });
    const shown = await resultShowing(page, 'GraphiQL Browser Clinic');
    expect(shown).toContain(tenant.tenantId);
    // The schema comes through the same headers once asked for again (docs/graphiql.md says so).
    await page.getByLabel('Re-fetch GraphQL schema').click();
    await page.getByLabel('Show Documentation Explorer').click();
    await page.locator('.graphiql-doc-explorer').getByText('publicTenant').first().waitFor();
    if (process.env.GRAPHIQL_SCREENSHOT) {
      // For docs/graphiql.md (GRAPHIQL_SCREENSHOT=docs/graphiql.png): the key blanked out, as in any published picture.
      await fill(page, page.locator('.graphiql-editor-tool .graphiql-editor:not(.hidden)'), JSON.stringify({ ...tenant.headers, 'API-KEY': '••••••••' }, null, 2));
      await page.screenshot({ path: process.env.GRAPHIQL_SCREENSHOT });
    }
    expect(problems).toEqual([]);
  });

  it('runs the migrateTemplateQuestion subscription over /graphql/stream and shows its events', async () => {
    const tenant = await createTestTenant('GraphiQL Stream Clinic');
    const template = await createLegacyTemplate(tenant);
    await fill(page, page.locator('.graphiql-editor-tool .graphiql-editor:not(.hidden)'), JSON.stringify(tenant.headers));
    await fill(
      page,
      page.getByLabel('Query Editor'),
      `subscription { migrateTemplateQuestion(templateId: "${template.templateId}", questionId: "${template.legacyQuestionId}") { type index count } }`,
    );
    const stream = page.waitForRequest((req) => req.url().startsWith(`${baseUrl()}/graphql/stream`));
    await page.locator('.graphiql-execute-button').click();
    expect((await stream).headers()).toMatchObject({ tenant: tenant.tenantId, 'api-key': tenant.apiKey });
    // The pane shows the latest event; the stream ends with `done`.
    const shown = await resultShowing(page, '"done"');
    expect(shown).toContain('migrateTemplateQuestion');
    expect(problems).toEqual([]);
  });

  it('keeps no header (the API key) and no query text in localStorage, sessionStorage or IndexedDB, and a reload remembers neither', async () => {
    const tenant = await createTestTenant('GraphiQL Storage Clinic');
    const query = '{ publicTenant { id name } } # patient Jane Storage-Probe';
    await fill(page, page.locator('.graphiql-editor-tool .graphiql-editor:not(.hidden)'), JSON.stringify(tenant.headers, null, 2));
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
        expect(text).not.toContain(tenant.apiKey);
        expect(text).not.toContain(tenant.tenantId);
        expect(text).not.toContain('Storage-Probe');
      }
    }
    // After the reload, the editors start from their defaults: neither the query nor the key came back.
    expect(await page.getByLabel('Query Editor').innerText()).not.toContain('Storage-Probe');
    expect(await page.locator('.graphiql-editor-tool .graphiql-editor:not(.hidden)').innerText()).not.toContain(tenant.apiKey);
    expect(problems).toEqual([]);
  });

  it('without the headers filled in, says what to do and sends nothing', async () => {
    let sent = 0;
    page.on('request', (req) => void (req.url().startsWith(`${baseUrl()}/graphql`) && req.method() === 'POST' && sent++));
    await fill(page, page.getByLabel('Query Editor'), '{ publicTenant { id } }');
    await page.locator('.graphiql-execute-button').click();
    await resultShowing(page, 'Fill in TENANT and API-KEY');
    expect(sent).toBe(0);
  });
});
