import { createHash } from 'node:crypto';
import type * as OpenIdClientModule from 'openid-client' with { 'resolution-mode': 'import' };
import { importEsm } from '../../platform/import-esm';
import { publicProviderFetch } from './provider-fetch';
import { ServiceUnavailableError } from '../../schema/errors';
import type { SingleSignOnSettings } from '../../subgraphs/tenant';

/** The openid-client module (ES module only). */
export type OpenIdClient = typeof OpenIdClientModule;
/** A client of one tenant's provider: the provider's discovered metadata with the tenant's client id and secret. */
export type OidcConfiguration = OpenIdClientModule.Configuration;

let loading: Promise<OpenIdClient> | null = null;

/** Loads openid-client with a real import(), once per process (docs/architecture.md, Stack notes). */
export function loadOpenIdClient(): Promise<OpenIdClient> {
  loading ??= importEsm<OpenIdClient>(require.resolve('openid-client'));
  return loading;
}

/** How long a provider's discovered metadata (and the signing keys fetched with it) is used before it is asked again. */
const FRESH_MS = 5 * 60_000;
/** Seconds a request to a provider may take: a person is waiting on the redirect. */
const TIMEOUT_SECONDS = 10;

/** Plain http is allowed only to a provider on this machine (development, tests), never elsewhere. */
export const isLoopbackHttp = (issuer: URL): boolean => issuer.protocol === 'http:' && (issuer.hostname === 'localhost' || issuer.hostname === '127.0.0.1');

interface Cached {
  /** The settings it was made from: a changed issuer, client id or secret is discovered afresh at once. */
  fingerprint: string;
  madeAt: number;
  configuration: Promise<OidcConfiguration>;
}

/**
 * Each tenant's provider, discovered (OpenID Connect Discovery 1.0) and kept for a few minutes:
 * a sign-in's two legs, and everyone signing in at once, share one discovery and one set of
 * fetched signing keys. A failed discovery is not kept.
 */
export class OidcDiscovery {
  private readonly cache = new Map<string, Cached>();

  /** `allowInternal` (SSO_ALLOW_INTERNAL=1, development and tests): providers on this machine or network may be reached; otherwise only public addresses (provider-fetch.ts). */
  constructor(private readonly allowInternal = false, private readonly freshMs = FRESH_MS) {}

  /** openid-client and the tenant's provider's configuration; 503 when the provider cannot be discovered. */
  async configuration(settings: SingleSignOnSettings): Promise<{ client: OpenIdClient; config: OidcConfiguration }> {
    const client = await loadOpenIdClient();
    const fingerprint = createHash('sha256').update(`${settings.issuer}\0${settings.clientId}\0${settings.clientSecret}`).digest('base64url');
    const now = Date.now();
    let cached = this.cache.get(settings.tenantId);
    if (!cached || cached.fingerprint !== fingerprint || now - cached.madeAt >= this.freshMs) {
      this.forgetStale(now);
      const issuer = new URL(settings.issuer);
      // client_secret_basic: what RFC 6749 (section 2.3.1) has every provider support, and OpenID Connect's default.
      const configuration = client.discovery(issuer, settings.clientId, undefined, client.ClientSecretBasic(settings.clientSecret), {
        timeout: TIMEOUT_SECONDS,
        execute: isLoopbackHttp(issuer) ? [client.allowInsecureRequests] : [],
        // Kept by the configuration for every later request (keys, tokens, user info).
        ...(this.allowInternal ? {} : { [client.customFetch]: publicProviderFetch }),
      });
      cached = { fingerprint, madeAt: now, configuration };
      this.cache.set(settings.tenantId, cached);
      const mine = cached;
      configuration.catch(() => this.cache.get(settings.tenantId) === mine && this.cache.delete(settings.tenantId));
    }
    try {
      return { client, config: await cached.configuration };
    } catch (error) {
      throw new ServiceUnavailableError("The tenant's identity provider could not be reached; try again shortly", 30, { cause: error });
    }
  }

  private forgetStale(now: number): void {
    for (const [tenantId, entry] of this.cache) if (now - entry.madeAt >= this.freshMs) this.cache.delete(tenantId);
  }
}
