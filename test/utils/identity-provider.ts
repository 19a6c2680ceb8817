import { join } from 'node:path';
import { freePort } from '../../gateway/database/free-port';
import { importEsm } from '../../platform/import-esm';

/** The claims the provider gives for a login (devInteractions: any login name, any password). */
export type ClaimsOf = (login: string) => Record<string, unknown>;

/** A real OpenID Connect provider (oidc-provider) listening on 127.0.0.1, with one confidential client. */
export interface IdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/** The provider's module (oidc-provider-server.mjs), loaded outside jest's sandbox. */
interface ProviderModule {
  startProvider(options: { port: number; redirectUri: string; clientId: string; clientSecret: string; idTokenClaims: boolean; claimsOf: ClaimsOf }): Promise<{ close(): Promise<void> }>;
}

/**
 * Starts oidc-provider (oidc-provider-server.mjs) on a free port of 127.0.0.1 with one client for
 * `redirectUri`. `claimsOf` says who a login name is (by default: that e-mail, verified);
 * `idTokenClaims` puts the e-mail in the ID token too, else only UserInfo has it.
 */
export async function startIdentityProvider(redirectUri: string, options: { claimsOf?: ClaimsOf; idTokenClaims?: boolean } = {}): Promise<IdentityProvider> {
  const { startProvider } = await importEsm<ProviderModule>(join(__dirname, 'oidc-provider-server.mjs'));
  const port = await freePort();
  const clientId = 'hpp-test-client';
  const clientSecret = 'a client secret for the tests';
  const claimsOf = options.claimsOf ?? ((login: string) => ({ email: login, email_verified: true }));
  const running = await startProvider({ port, redirectUri, clientId, clientSecret, idTokenClaims: options.idTokenClaims ?? false, claimsOf });
  return { issuer: `http://127.0.0.1:${port}`, clientId, clientSecret, close: () => running.close() };
}

/** The cookies of one browser at one host, as simply as the provider's pages need. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const name = pair.slice(0, pair.indexOf('=')).trim();
      const value = pair.slice(pair.indexOf('=') + 1).trim();
      const expires = attributes.map((a) => /^\s*expires=(.*)$/i.exec(a)?.[1]).find(Boolean);
      if (!value || (expires && Date.parse(expires) <= Date.now())) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Plays the person's browser at the provider: follows its redirects from the authorization URL,
 * fills in its login form (`login`, any password) and consent form, and stops at the first
 * redirect back to `appUrl`, whose URL it answers (the callback with code and state).
 */
export async function signInAtProvider(authorizationUrl: string, login: string, appUrl: string): Promise<string> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  let init: RequestInit = {};
  for (let step = 0; step < 20; step++) {
    if (url.startsWith(`${appUrl}/`)) return url;
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: jar.header() } });
    jar.keep(res);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      [url, init] = [new URL(location, url).href, {}];
      continue;
    }
    const page = await res.text();
    const action = /<form[^>]*action="([^"]+)"[^>]*method="post"/.exec(page)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    if (res.status !== 200 || !action || !prompt) throw new Error(`the identity provider answered ${res.status}: ${page.slice(0, 400)}`);
    const fields: Record<string, string> = prompt === 'login' ? { prompt, login, password: 'any password' } : { prompt };
    [url, init] = [new URL(action, url).href, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() }];
  }
  throw new Error('the identity provider never sent the browser back');
}
