// A real OpenID Connect provider for the tests (test/utils/identity-provider.ts loads this file; another name than that one's, which jest would resolve to this).
// It is a module of its own, loaded with a real import(), because oidc-provider checks that its
// configuration is made of plain objects of its own realm (`value.constructor === Object`):
// objects written in a jest test file belong to jest's sandbox and would fail that check.
import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Starts oidc-provider on 127.0.0.1:`port` with one confidential client for `redirectUri` (the
 * authorization code grant with PKCE, client_secret_basic) and its development login and consent
 * pages (devInteractions: any login name, any password). `claimsOf(login)` gives the person's
 * claims; `idTokenClaims` puts them in the ID token too (else only in UserInfo, oidc-provider's
 * default after OpenID Connect Core 5.4). Answers its `close()`.
 */
export async function startProvider({ port, redirectUri, clientId, clientSecret, idTokenClaims, claimsOf }) {
  const { default: Provider } = await import(require.resolve('oidc-provider'));
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const warn = console.warn;
  // devInteractions announce themselves on the console at construction: expected here.
  console.warn = () => undefined;
  let provider;
  try {
    provider = new Provider(`http://127.0.0.1:${port}`, {
      clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' }],
      claims: { openid: ['sub'], email: ['email', 'email_verified'] },
      conformIdTokenClaims: !idTokenClaims,
      pkce: { required: () => true },
      // Set, not left to the defaults, which say so on the console.
      ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
      cookies: { keys: ['identity provider cookie key for the tests'] },
      jwks: { keys: [{ ...signingKey, kid: 'test', use: 'sig', alg: 'RS256' }] },
      features: { devInteractions: { enabled: true } },
      findAccount: async (_ctx, sub) => ({
        accountId: sub,
        // Copied into this realm's objects, for the same reason as above.
        claims: async () => ({ ...JSON.parse(JSON.stringify(claimsOf(sub))), sub }),
      }),
    });
  } finally {
    console.warn = warn;
  }
  const server = provider.listen(port, '127.0.0.1');
  await new Promise((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return { close: () => new Promise((resolve) => server.close(() => resolve()).closeAllConnections()) };
}
