import { chromium, type Browser } from 'playwright-core';
import { findChromium } from '../browser/find-chromium';
import { newWatchedPage } from '../browser/session-page';
import { baseUrl, createTestTenant } from '../utils/e2e';

const executablePath = findChromium();
const describeInBrowser = executablePath ? describe : describe.skip;

/**
 * Swagger UI's "Try it out" at /docs (issue 34, item 7): the document's server is relative, so the
 * page sends its requests to its own origin, which the CSP's 'self' allows, whichever host name it
 * was opened at. The servers' PUBLIC_URL is 127.0.0.1; the page is opened at both names.
 */
describeInBrowser(`Swagger UI at /docs in Chromium (${process.env.E2E_MODE} mode)`, () => {
  let browser: Browser;
  const problems: string[] = [];
  jest.setTimeout(60_000);

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: executablePath!, headless: true, args: ['--no-sandbox'] });
  });
  afterAll(() => browser?.close());

  it.each(['127.0.0.1', 'localhost'])('runs GET /tenant/public through "Try it out" on the page opened at %s', async (host) => {
    problems.length = 0;
    const tenant = await createTestTenant(`Docs Browser Clinic ${host}`);
    const origin = baseUrl().replace('127.0.0.1', host);
    const { page, sent } = await newWatchedPage(browser, problems);
    try {
      await page.goto(`${origin}/docs`);
      await page.locator('#operations-Tenant-getPublicTenant').waitFor({ timeout: 20_000 });
      // The keys go in as the Authorize dialog would put them, through Swagger UI's own call.
      await page.evaluate(({ id, key }) => {
        const ui = (globalThis as unknown as { ui: { preauthorizeApiKey(name: string, value: string): void } }).ui;
        ui.preauthorizeApiKey('tenant', id);
        ui.preauthorizeApiKey('apiKey', key);
      }, { id: tenant.tenantId, key: tenant.apiKey });
      const operation = page.locator('#operations-Tenant-getPublicTenant');
      await operation.locator('.opblock-summary').first().click();
      await operation.getByRole('button', { name: 'Try it out' }).click();
      const answered = page.waitForResponse((res) => res.url().endsWith('/tenant/public'));
      await operation.getByRole('button', { name: 'Execute' }).click();
      const response = await answered;
      expect(response.url()).toBe(`${origin}/tenant/public`);
      expect(response.status()).toBe(200);
      await operation.locator('.live-responses-table .response-col_status').getByText('200').first().waitFor();
      expect(await operation.locator('.live-responses-table').innerText()).toContain(tenant.tenantId);
      expect(sent.filter((req) => !req.url.startsWith(`${origin}/`)).map((req) => req.url)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
