import { createClient } from 'graphql-sse';
import { baseUrl, createTestTenant, request } from '../utils/e2e';

describe(`subscriptions over graphql-sse at /graphql/stream (${process.env.E2E_MODE} mode)`, () => {
  it('routes a subscription to its owning subgraph and streams every event', async () => {
    const tenant = await createTestTenant();
    const client = createClient({ url: `${baseUrl()}/graphql/stream`, headers: tenant.headers, retryAttempts: 0 });
    const ticks: number[] = [];
    for await (const result of client.iterate<{ streamProbe: number }>({ query: 'subscription { streamProbe(count: 4) }' })) {
      ticks.push(result.data!.streamProbe);
    }
    client.dispose();
    expect(ticks).toEqual([1, 2, 3, 4]);
  });

  it('refuses queries, unknown fields and unauthenticated callers', async () => {
    const tenant = await createTestTenant();
    const post = (body: unknown, headers: Record<string, string> = tenant.headers) =>
      request(`${baseUrl()}/graphql/stream`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify(body) });
    const query = await post({ query: '{ tenant { id } }' });
    expect(query.status).toBe(400);
    expect(query.text).toContain('Only subscriptions');
    expect((await post({ query: 'subscription { nope }' })).status).toBe(400);
    expect((await post({ query: 'subscription { streamProbe }' }, {})).status).toBe(422);
  });
});
