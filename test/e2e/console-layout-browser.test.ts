import { chromium, type Browser, type Page } from 'playwright-core';
import { accessibilityViolations } from '../browser/accessibility';
import { findChromium } from '../browser/find-chromium';
import { openConsoleSignedIn, widgetStates } from '../browser/console-page';
import { newWatchedPage } from '../browser/session-page';
import { createDemoTenant } from '../subgraphs/analytics/revenue-kit';
import { baseUrl, type TestTenant } from '../utils/e2e';
import { createTestPerson, type TestPerson } from '../utils/people';

// Functions given to page.evaluate run in the browser; these names are the browser's there (the tests' tsconfig has no DOM lib).
declare const document: any, window: any, getComputedStyle: any;
declare type HTMLElement = any;

const executablePath = findChromium();
const describeInBrowser = executablePath ? describe : describe.skip;
// CONSOLE_SCREENSHOTS=docs writes docs/console-phone.png and docs/console-dark.png (docs/console.md).
const screenshots = process.env.CONSOLE_SCREENSHOTS;
// The narrowest and widest common phones, and the one the picture is taken at.
const PHONES = [{ width: 360, height: 780 }, { width: 375, height: 812 }, { width: 414, height: 896 }];
const PHONE = PHONES[1];
const DESKTOP = { width: 1366, height: 900 };

/** How far the page reaches past the window's right edge (0: nothing scrolls sideways), and the elements that stick out. */
function sideways(page: Page): Promise<{ overflow: number; offenders: string[] }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const width = root.clientWidth;
    // An element inside a box that scrolls (or clips) on its own does not widen the page.
    const clipped = (el: HTMLElement) => {
      for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) if (getComputedStyle(e).overflowX !== 'visible') return true;
      return false;
    };
    const offenders = [...document.body.querySelectorAll('*')]
      .filter((el: HTMLElement) => el.getClientRects().length > 0 && el.getBoundingClientRect().right > width + 0.5 && !clipped(el))
      .slice(0, 5)
      .map((el: HTMLElement) => `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''} right=${Math.round(el.getBoundingClientRect().right)}`);
    return { overflow: Math.max(root.scrollWidth, document.body.scrollWidth) - Math.min(width, window.innerWidth), offenders };
  });
}

async function expectNoSidewaysScroll(page: Page, view: string): Promise<void> {
  expect({ view, ...(await sideways(page)) }).toEqual({ view, overflow: 0, offenders: [] });
}

/** The visible buttons, links of the top bar, form controls and checkbox labels smaller than 44 × 44 px (a finger's touch target). */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.topbar a, .topbar button, main button, main .button, main input:not([type="checkbox"]):not([type="radio"]), main select, main textarea, main .check')]
      .filter((el: HTMLElement) => el.getClientRects().length > 0)
      .map((el: HTMLElement) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }: { box: any }) => box.width < 44 || box.height < 44)
      .map(({ el, box }: { el: HTMLElement; box: any }) => `${el.tagName.toLowerCase()} "${(el.textContent || el.name || '').trim().slice(0, 30)}" ${Math.round(box.width)}×${Math.round(box.height)}`),
  );
}

/** The relative luminance (WCAG) of the body's background and of its text, 0 black to 1 white. */
function bodyLuminance(page: Page): Promise<{ background: number; text: number }> {
  return page.evaluate(() => {
    const channel = (v: number) => ((v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    const luminance = (css: string) => {
      const [r, g, b] = /rgba?\(([^)]+)\)/.exec(css)![1].split(/[\s,/]+/).map(Number);
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const style = getComputedStyle(document.body);
    return { background: luminance(style.backgroundColor), text: luminance(style.color) };
  });
}

describeInBrowser(`the console at phone width and in a dark theme (issue 34, ${process.env.E2E_MODE} mode)`, () => {
  let browser: Browser;
  let demo: TestTenant;
  let analyst: TestPerson;
  let page: Page;
  const problems: string[] = [];
  jest.setTimeout(120_000);

  beforeAll(async () => {
    [browser, demo] = await Promise.all([chromium.launch({ executablePath: executablePath!, headless: true, args: ['--no-sandbox'] }), createDemoTenant('Console Layout Clinic')]);
    analyst = await createTestPerson(demo, 'analyst');
  }, 90_000);
  afterAll(() => browser?.close());
  beforeEach(() => void (problems.length = 0));
  afterEach(() => page?.close());

  const open = async (viewport: { width: number; height: number }) => (page = (await newWatchedPage(browser, problems, { viewport, reducedMotion: 'reduce' })).page);

  it.each(PHONES)('at $width px no view scrolls sideways, widgets stack, tables scroll in their own region, and Sign out is in reach', async (phone) => {
    await open(phone);
    await page.goto(`${baseUrl()}/console`);
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    await expectNoSidewaysScroll(page, 'sign-in');
    expect(await smallTargets(page)).toEqual([]);

    await openConsoleSignedIn(page, analyst);
    await page.getByRole('heading', { name: 'Dashboards', level: 1 }).waitFor();
    await page.locator('.dashboard-list').waitFor();
    await expectNoSidewaysScroll(page, 'dashboards');
    expect(await smallTargets(page)).toEqual([]);

    await page.getByRole('link', { name: 'Revenue overview' }).click();
    expect((await widgetStates(page)).filter((w) => w.state !== 'drawn')).toEqual([]);
    await expectNoSidewaysScroll(page, 'dashboard');
    // One column: every widget starts at the grid's left edge and is as wide as the grid, one below the other in the DOM's (reading) order.
    const { grid, widgets } = await page.evaluate(() => {
      const box = (el: HTMLElement) => (({ left, width, top, bottom }) => ({ left, width, top, bottom }))(el.getBoundingClientRect());
      return { grid: box(document.querySelector('.grid')), widgets: [...document.querySelectorAll('.grid > .widget')].map(box) };
    });
    expect(widgets.length).toBeGreaterThan(1);
    for (const widget of widgets) {
      expect(widget.left).toBeCloseTo(grid.left, 0);
      expect(widget.width).toBeCloseTo(grid.width, 0);
    }
    widgets.slice(1).forEach((widget, i) => expect(widget.top).toBeGreaterThanOrEqual(widgets[i].bottom));
    if (screenshots && phone === PHONE) await page.screenshot({ path: `${screenshots}/console-phone.png` });

    await page.getByRole('link', { name: 'Add a widget' }).click();
    await page.getByRole('button', { name: 'Preview' }).waitFor();
    await expectNoSidewaysScroll(page, 'composer');
    expect(await smallTargets(page)).toEqual([]);

    await page.getByRole('link', { name: 'Revenue explorer' }).click();
    await page.getByLabel('Group by').selectOption('LOCATION');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.locator('.table-scroll[aria-label="Groups"]').waitFor();
    await page.waitForFunction(() => document.querySelector('section[aria-busy="false"] .table-scroll'));
    await expectNoSidewaysScroll(page, 'revenue explorer, grouped');
    expect(await smallTargets(page)).toEqual([]);
    // The lines' table is wider than the phone: it scrolls inside its region, which itself stays within the window.
    const lines = await page.locator('.table-scroll[aria-label="Lines"]').evaluate((el) => ({ scrolls: el.scrollWidth > el.clientWidth, right: el.getBoundingClientRect().right, width: document.documentElement.clientWidth }));
    expect(lines.scrolls).toBe(true);
    expect(lines.right).toBeLessThanOrEqual(lines.width);

    // Sign out is whole within the window at the top, not covered by anything, and works.
    await page.evaluate(() => window.scrollTo(0, 0));
    const signOut = page.getByRole('button', { name: 'Sign out' });
    const box = (await signOut.boundingBox())!;
    expect([box.x >= 0, box.y >= 0, box.x + box.width <= phone.width, box.y + box.height <= phone.height, box.height >= 44]).toEqual([true, true, true, true, true]);
    expect(await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.id, [box.x + box.width / 2, box.y + box.height / 2])).toBe('sign-out');
    await signOut.click();
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    expect(problems).toEqual([]);
  });

  it('at 375 px the accept-invitation page fits the window, its controls big enough to touch', async () => {
    const invited = await demo.graphql('mutation { inviteUser(input: {email: "phone.person@example.com", role: ANALYST}) { invitationToken } }');
    await open(PHONE);
    await page.goto(`${baseUrl()}/console/#/accept-invitation?token=${invited.body.data.inviteUser.invitationToken}`);
    await page.getByRole('heading', { name: 'Accept your invitation' }).waitFor();
    await page.getByRole('button', { name: 'Choose this password' }).click();
    await page.locator('#accept-error:not([hidden])').waitFor();
    await expectNoSidewaysScroll(page, 'accept invitation');
    expect(await smallTargets(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('follows the system’s colour scheme: light by default, dark when asked, every view passing axe-core’s WCAG 2.1 AA rules in both', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await open(DESKTOP);
      await page.emulateMedia({ colorScheme: scheme });
      // The sign-in form with its error box (nothing typed: the form's own message, no request).
      await page.goto(`${baseUrl()}/console`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('#sign-in-error:not([hidden])').waitFor();
      expect({ scheme, view: 'sign-in', failures: await accessibilityViolations(page) }).toEqual({ scheme, view: 'sign-in', failures: [] });

      const shade = await bodyLuminance(page);
      if (scheme === 'dark') expect([shade.background < 0.05, shade.text > 0.6]).toEqual([true, true]);
      else expect([shade.background > 0.8, shade.text < 0.05]).toEqual([true, true]);

      await openConsoleSignedIn(page, analyst);
      await page.getByRole('link', { name: 'Revenue overview' }).click();
      expect((await widgetStates(page)).filter((w) => w.state !== 'drawn')).toEqual([]);
      expect({ scheme, view: 'dashboard', failures: await accessibilityViolations(page) }).toEqual({ scheme, view: 'dashboard', failures: [] });
      if (screenshots && scheme === 'dark') await page.screenshot({ path: `${screenshots}/console-dark.png` });

      // The composer with the API's 422 messages at their fields.
      await page.getByRole('link', { name: 'Add a widget' }).click();
      await page.getByRole('button', { name: 'Save widget' }).click();
      await page.locator('.field-error:not([hidden])').first().waitFor();
      expect({ scheme, view: 'composer', failures: await accessibilityViolations(page) }).toEqual({ scheme, view: 'composer', failures: [] });

      // The explorer, grouped, one group's lines chosen (its row highlighted).
      await page.getByRole('link', { name: 'Revenue explorer' }).click();
      await page.getByLabel('Group by').selectOption('LOCATION');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.locator('.table-scroll[aria-label="Groups"] button').first().click();
      await page.locator('tr[aria-current]').waitFor();
      await page.waitForFunction(() => document.querySelector('section[aria-busy="false"] .table-scroll'));
      expect({ scheme, view: 'revenue', failures: await accessibilityViolations(page) }).toEqual({ scheme, view: 'revenue', failures: [] });

      // A system that states no preference gets the light theme.
      if (scheme === 'light') {
        await page.emulateMedia({ colorScheme: 'no-preference' });
        expect(await bodyLuminance(page)).toEqual(shade);
      }
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});
