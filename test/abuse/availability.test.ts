/**
 * Abuse suite, availability: while a loop keeps asking /healthz, a tenant with data sends the
 * depth bomb (`merchantAccounts { locations { merchantAccounts ... } } }`, 40 levels: each level
 * multiplies the answer) and an alias flood (1,000 aliases of `patients(first: 100)`) a few times
 * at once. /healthz keeps answering 200 and each bomb gets a JSON GraphQL error. Every request is
 * aborted after BOMB_TIMEOUT_MS, so a vulnerable server fails this test instead of hanging jest.
 */
import { send, type AbuseRequest } from '../utils/abuse-http';
import { graphqlProblems } from '../utils/abuse-graphql';
import { admin, baseUrl } from '../utils/e2e';

jest.setTimeout(120_000);

/** How long a bomb may go unanswered before the server counts as overwhelmed. */
const BOMB_TIMEOUT_MS = 10_000;
/** How long one /healthz probe may go unanswered: a server whose event loop is stuck this long is down to its users. */
const PROBE_TIMEOUT_MS = 5_000;
const ROUNDS = 3;

let headers: Record<string, string>;

beforeAll(async () => {
  // The demo data gives merchant accounts serving several locations, so every level of the bomb fans out.
  const created = await admin('/tenants', { method: 'POST', body: JSON.stringify({ name: 'Availability Clinic', demoData: true }), signal: AbortSignal.timeout(60_000) });
  if (created.status !== 201) throw new Error(`creating a demo tenant failed: ${created.status} ${created.text}`);
  headers = { TENANT: created.body.tenant.id, 'API-KEY': created.body.apiKey, 'content-type': 'application/json' };
});

/** `merchantAccounts { id name locations { id name merchantAccounts { ... } } }`, `levels` deep. */
function depthBomb(levels: number): string {
  let inner = 'id name';
  for (let i = levels; i > 0; i--) inner = `${i % 2 ? 'merchantAccounts' : 'locations'} { id name ${inner} }`;
  return `{ ${inner} }`;
}

const aliasFlood = (count: number) =>
  `{ ${Array.from({ length: count }, (_, i) => `p${i}: patients(first: 100, sortDirection: ASC) { totalCount nodes { id firstName lastName email } }`).join(' ')} }`;

/** Asks /healthz until stopped; answers every probe that was not a prompt 200. */
function probeHealth(base: string): { stop: () => Promise<string[]>; probes: () => number } {
  const failures: string[] = [];
  let running = true;
  let count = 0;
  const loop = (async () => {
    while (running) {
      const started = new Date().toISOString();
      try {
        const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
        await res.arrayBuffer();
        if (res.status !== 200) failures.push(`${started}: /healthz answered ${res.status}`);
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
        failures.push(`${started}: /healthz got no answer within ${PROBE_TIMEOUT_MS} ms (${cause})`);
      }
      count++;
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return failures;
    },
    probes: () => count,
  };
}

test('/healthz keeps answering while depth bombs and alias floods arrive, and the bombs get a GraphQL error', async () => {
  const base = baseUrl();
  const bombs: Record<string, AbuseRequest> = {
    'depth bomb (40 levels)': { method: 'POST', path: '/graphql', headers, body: { kind: 'json', value: { query: depthBomb(40) } } },
    'alias flood (1,000 x patients(first: 100))': { method: 'POST', path: '/graphql', headers, body: { kind: 'json', value: { query: aliasFlood(1000) } } },
  };
  const health = probeHealth(base);
  const outcomes: string[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const sent = Object.entries(bombs).flatMap(([name, req]) =>
        [0, 1].map(async () => {
          try {
            const problems = graphqlProblems(await send(base, req, BOMB_TIMEOUT_MS), `it is a ${name}`);
            if (problems.length) outcomes.push(`round ${round + 1}, ${name}: ${problems.join('; ')}`);
          } catch (error) {
            outcomes.push(`round ${round + 1}, ${name}: ${(error as Error).message.split('\n')[0]}`);
          }
        }),
      );
      await Promise.all(sent);
    }
  } finally {
    const unhealthy = await health.stop();
    const report = [
      ...unhealthy.slice(0, 10).map((line) => `health: ${line}`),
      ...(unhealthy.length > 10 ? [`health: ... and ${unhealthy.length - 10} more failed probes`] : []),
      ...outcomes,
    ];
    expect(health.probes()).toBeGreaterThan(0);
    if (report.length) throw new Error(`the service did not stay available under GraphQL bombs:\n${report.join('\n')}`);
  }
});
