import { TOTP } from 'otpauth';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findChromium } from '../browser/find-chromium';
import { openConsoleSignedIn } from '../browser/console-page';
import { newWatchedPage, sessionCookie, signIn } from '../browser/session-page';
import { createDemoTenant } from '../subgraphs/analytics/revenue-kit';
import { baseUrl, createTestTenant, type TestTenant } from '../utils/e2e';
import { createTestPerson, sessionStatus, type TestPerson } from '../utils/people';

// Functions given to page.evaluate run in the browser; `document` is the browser's there (the tests' tsconfig has no DOM lib).
declare const document: any;

const executablePath = findChromium();
const describeInBrowser = executablePath ? describe : describe.skip;

/**
 * People signing in to the console (docs/console.md, Signing in): a session that survives a reload,
 * the sign-in form's messages, what a role may see, sign-out, a session ended on the server, and a
 * second factor. Nobody types an API key: the tests' keys only invite people through /graphql.
 */
describeInBrowser(`signing in to the console in Chromium (${process.env.E2E_MODE} mode)`, () => {
  let browser: Browser;
  let page: Page;
  let sent: Awaited<ReturnType<typeof newWatchedPage>>['sent'];
  let demo: TestTenant;
  const problems: string[] = [];
  jest.setTimeout(150_000);

  beforeAll(async () => {
    [browser, demo] = await Promise.all([chromium.launch({ executablePath: executablePath!, headless: true, args: ['--no-sandbox'] }), createDemoTenant('Console Sign-in Clinic')]);
  }, 90_000);
  afterAll(() => browser?.close());

  beforeEach(async () => {
    problems.length = 0;
    ({ page, sent } = await newWatchedPage(browser, problems, { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' }));
  });
  afterEach(() => page?.close());

  const alert = () => page.locator('#sign-in-error');
  /** Waits until the sign-in form's message says `text`. */
  const says = (text: RegExp) => alert().filter({ hasText: text }).waitFor();
  /** Signs in through the form and waits for the server's answer, so that the message then shown is this attempt's. */
  async function attempt(person: Parameters<typeof signIn>[1]): Promise<void> {
    const answered = page.waitForResponse((res) => res.url().endsWith('/auth/sign-in'));
    await signIn(page, person);
    await answered;
  }

  it('a wrong password, or another tenant, shows the error; the right one signs in, survives a reload, and signing out ends the session for good', async () => {
    const person = await createTestPerson(demo, 'analyst');
    const other = await createTestTenant('Console Other Clinic');
    await page.goto(`${baseUrl()}/console`);
    await attempt({ ...person, password: 'not the password at all' });
    await says(/e-mail or password was not accepted/);
    await attempt({ ...person, tenantId: other.tenantId });
    await says(/e-mail or password was not accepted/);
    expect(await page.locator('#session').isHidden()).toBe(true);
    expect(await sessionCookie(page)).toBeNull();

    await signIn(page, person);
    await page.getByRole('heading', { name: 'Dashboards', level: 1 }).waitFor();
    await expect(page.locator('#session-tenant').innerText()).resolves.toBe('Signed in to Console Sign-in Clinic as analyst');
    const cookie = await sessionCookie(page);
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict' });
    await page.reload();
    await page.getByRole('heading', { name: 'Dashboards', level: 1 }).waitFor();
    expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    expect(await page.locator('#session').isHidden()).toBe(true);
    expect(await sessionCookie(page)).toBeNull();
    // The server ended it: the old cookie, sent again, is refused; a reload shows the form.
    expect(await sessionStatus(cookie!.value)).toBe(401);
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    expect(sent.filter((req) => req.headers['api-key'] || req.headers.tenant)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('an analyst sees revenue lines with patients’ names masked; a billing person is told which scope the dashboards need', async () => {
    await openConsoleSignedIn(page, await createTestPerson(demo, 'analyst'), '#/revenue');
    await page.locator('table.lines tbody tr').first().waitFor();
    const patients = await page.$$eval('table.lines', ([table]) => {
      const column = [...table.querySelectorAll('thead th')].findIndex((th) => th.textContent === 'Patient');
      return [...table.querySelectorAll('tbody tr')].map((tr) => tr.children[column].textContent);
    });
    const named = patients.filter((name) => name !== '—');
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) expect(name).toMatch(/^\S\*\*\*$/);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await openConsoleSignedIn(page, await createTestPerson(demo, 'billing'));
    await expect(page.getByRole('alert').innerText()).resolves.toBe('Your role (billing) does not include the scope "analytics:read" this needs: ask an admin of your clinic.');
    // A refusal is not the end of the session.
    expect(await page.locator('#session').isVisible()).toBe(true);
    expect(problems).toEqual([]);
  });

  it('a session ended on the server (the person removed) sends the next request to the sign-in form, saying why', async () => {
    const person = await createTestPerson(demo, 'analyst');
    await openConsoleSignedIn(page, person);
    await page.getByRole('heading', { name: 'Dashboards', level: 1 }).waitFor();
    expect((await demo.graphql('mutation($id: ID!) { removeUser(id: $id) }', { id: person.id })).body.data.removeUser).toBe(person.id);
    await page.getByRole('link', { name: 'Revenue explorer' }).click();
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    await says(/^Your session has ended/);
    expect(problems).toEqual([]);
  });

  it('a sign-in in another tab replaces the session: this tab’s next request is refused (CSRF) and says to reload, which shows the new one', async () => {
    const [first, second] = await Promise.all([createTestPerson(demo, 'analyst'), createTestPerson(demo, 'admin')]);
    await openConsoleSignedIn(page, first);
    await page.getByRole('heading', { name: 'Dashboards', level: 1 }).waitFor();
    // Another tab of the same browser signs in as someone else (the browser's own requests, sharing its cookies): the cookie is now that session's.
    const signedIn = await page.context().request.post(`${baseUrl()}/auth/sign-in`, { data: { tenantId: second.tenantId, email: second.email, password: second.password } });
    expect(signedIn.status()).toBe(200);
    await page.getByRole('link', { name: 'Revenue explorer' }).click();
    await page.getByRole('alert').filter({ hasText: 'security token was not accepted' }).waitFor();
    await page.reload();
    await page.locator('#session-tenant').filter({ hasText: 'as admin' }).waitFor();
    expect(problems).toEqual([]);
  });

  it('after five failed sign-ins the account waits, and the form says how long', async () => {
    const person = await createTestPerson(demo, 'analyst');
    await page.goto(`${baseUrl()}/console`);
    for (let i = 0; i < 5; i++) {
      await attempt({ ...person, password: `wrong password ${i}` });
      await says(/not accepted/);
    }
    await attempt(person);
    await says(/^Too many failed sign-ins: wait about 15 minutes, then try again\.$/);
    expect(await page.locator('#session').isHidden()).toBe(true);
    expect(problems).toEqual([]);
  });

  it('served over plain HTTP at a host name (not loopback) the browser drops the Secure cookie, and the form says to use HTTPS', async () => {
    // Chromium counts http://127.0.0.1 and http://localhost as secure origins (the other tests), but not an ordinary host name.
    const plain = await chromium.launch({ executablePath: executablePath!, headless: true, args: ['--no-sandbox', '--host-resolver-rules=MAP clinic.test 127.0.0.1'] });
    try {
      const insecure = await plain.newPage();
      await insecure.goto(`${baseUrl().replace('127.0.0.1', 'clinic.test')}/console`);
      await signIn(insecure, await createTestPerson(demo, 'analyst'));
      await insecure.locator('#sign-in-error').filter({ hasText: 'did not keep the session cookie, which is sent over HTTPS only' }).waitFor();
      expect(await insecure.context().cookies()).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  it('a tenant that requires a second factor: the console sets it up, then asks for the code at every sign-in', async () => {
    const tenant = await createTestTenant('Console TOTP Clinic');
    expect((await tenant.graphql('mutation { setTwoFactorRequired(required: true) }')).body.data.setTwoFactorRequired).toBe(true);
    const person: TestPerson = await createTestPerson(tenant, 'analyst');
    await openConsoleSignedIn(page, person);
    await page.getByRole('heading', { name: 'Set up a second factor' }).first().waitFor();
    expect(await page.locator('#nav').isHidden()).toBe(true);
    const secret = (await page.locator('#two-factor-secret').innerText()).replace(/\s/g, '');
    const totp = new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 });
    await page.getByLabel('Code from the app').fill(String((Number(totp.generate()) + 1) % 1_000_000).padStart(6, '0'));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('alert').filter({ hasText: 'did not match' }).waitFor();
    await page.getByLabel('Code from the app').fill(totp.generate());
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { name: 'Dashboards', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, person);
    await says(/needs a code too/);
    expect(await page.getByLabel('Two-factor code').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByLabel('Two-factor code').fill(totp.generate());
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboards', level: 1 }).waitFor();
    // The wrong code's 422 was deliberate.
    expect(problems.filter((problem) => !/status of 422 .*\/auth\/two-factor\/confirm/.test(problem))).toEqual([]);
  });

  it("an invitation's link opens the console's page for it: the person chooses a password (twice, 12 or more), then signs in with it", async () => {
    const invited = await demo.graphql('mutation { inviteUser(input: {email: "linked.person@example.com", role: ANALYST}) { invitationToken } }');
    const token = invited.body.data.inviteUser.invitationToken as string;
    await page.goto(`${baseUrl()}/console/#/accept-invitation?token=${token}`);
    await page.getByRole('heading', { name: 'Accept your invitation' }).waitFor();
    await page.getByLabel('Password', { exact: true }).fill('too short');
    await page.getByLabel('Password again').fill('too short');
    await page.getByRole('button', { name: 'Choose this password' }).click();
    await page.locator('#accept-error').filter({ hasText: /at least 12 characters/ }).waitFor();
    await page.getByLabel('Password', { exact: true }).fill('a long enough passphrase');
    await page.getByLabel('Password again').fill('a long enough passphrase');
    await page.getByRole('button', { name: 'Choose this password' }).click();
    // The sign-in form, the tenant filled in; the token has left the address bar.
    await page.locator('#sign-in-notice').filter({ hasText: /Your password is set/ }).waitFor();
    expect(await page.getByLabel('Tenant id').inputValue()).toBe(demo.tenantId);
    expect(page.url()).not.toContain(token);
    await signIn(page, { tenantId: demo.tenantId, email: 'linked.person@example.com', password: 'a long enough passphrase' });
    await page.getByRole('heading', { name: 'Dashboards', level: 1 }).waitFor();
    // The link works once.
    await page.goto('about:blank');
    const again = await fetch(`${baseUrl()}/auth/invitations/accept`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, password: 'a long enough passphrase' }) });
    expect(again.status).toBe(404);
    expect(problems).toEqual([]);
  });
});

