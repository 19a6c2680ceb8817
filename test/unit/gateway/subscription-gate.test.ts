import { buildSchema } from 'graphql';
import { PhiMask } from '../../../gateway/access/phi-mask';
import { maskValue } from '../../../gateway/access/phi-fields';
import { ScopeCheck } from '../../../gateway/access/scope-check';
import { loadConfig } from '../../../gateway/config';
import { subscriptionGate } from '../../../gateway/graphql/subscription-gate';
import { SubscriptionRouter, type SubscriptionTransport } from '../../../gateway/graphql/subscription-router';
import { cancellableEvents } from '../../../platform/cancellable-events';
import { FULL_ACCESS, type Grants } from '../../../schema/scopes';
import type { OperationResult } from '../../../schema/request-context';
import { testContext } from '../../utils/request-context';

/**
 * The gate both subscription transports open through (graphql-sse and graphql-ws), on a graph of
 * its own whose one subscription carries a patient's name: a transport that hands out the same
 * event until cancelled, and counts what is open upstream, stands in for the subgraph.
 */
describe('subscription gate', () => {
  const schema = buildSchema('type Query { ok: Boolean } type Mutation { ok: Boolean } type Visit { id: ID! patientName: String } type Subscription { visits: Visit! }');
  const scopes = new ScopeCheck({ Query: { ok: 'any' }, Mutation: { ok: 'any' }, Subscription: { visits: 'notes:read' } } as never);
  let open = 0;
  const transport: SubscriptionTransport = {
    async open() {
      open++;
      const event: OperationResult = { data: { visits: { id: 'v1', patientName: 'Ana Lopez' } } };
      return cancellableEvents(async () => ({ done: false, value: structuredClone(event) }), () => void open--);
    },
  };
  const limits = loadConfig({ GRAPHQL_MAX_STREAMS_PER_TENANT: '1' }).graphql;
  const gate = subscriptionGate(new SubscriptionRouter(new Map([['visits', 'notes']]), transport), limits, schema, scopes, new PhiMask(schema, { 'Visit.patientName': 'name' }, {}));
  const ctx = (granted: Grants) => ({ ...testContext('tenant-a'), scopes: granted });
  const query = 'subscription { visits { id patientName } }';

  it('masks patient fields of every event for a caller without patients:read, and only then', async () => {
    const masked = await gate.open({ query }, ctx(new Set(['notes:read'])), 'ws');
    if (!('events' in masked)) throw new Error(JSON.stringify(masked));
    expect((await masked.events.next()).value).toEqual({ data: { visits: { id: 'v1', patientName: maskValue('name', 'Ana Lopez') } } });
    await masked.events.return();
    const plain = await gate.open({ query }, ctx(new Set(['notes:read', 'patients:read'])), 'sse');
    if (!('events' in plain)) throw new Error(JSON.stringify(plain));
    expect((await plain.events.next()).value).toEqual({ data: { visits: { id: 'v1', patientName: 'Ana Lopez' } } });
    await plain.events.return();
    expect(maskValue('name', 'Ana Lopez')).not.toBe('Ana Lopez');
  });

  it('refuses a missing scope, a query and a second stream of the tenant while the first is open; the first one ending frees its slot', async () => {
    expect(await gate.open({ query }, ctx(new Set(['tenant:read'])), 'sse')).toEqual({ refused: { status: 403, message: 'Missing scope "notes:read"', extensions: { code: 'FORBIDDEN', scope: 'notes:read' } } });
    expect(await gate.open({ query: '{ ok }' }, ctx(FULL_ACCESS), 'ws')).toMatchObject({ refused: { status: 400, extensions: { code: 'BAD_REQUEST' } } });
    const first = await gate.open({ query }, ctx(FULL_ACCESS), 'sse');
    expect(await gate.open({ query }, ctx(FULL_ACCESS), 'ws')).toMatchObject({ refused: { status: 429, extensions: { code: 'RATE_LIMITED' } } });
    const otherTenant = await gate.open({ query }, { ...ctx(FULL_ACCESS), tenantId: 'tenant-b' }, 'ws');
    if (!('events' in otherTenant)) throw new Error('the cap is per tenant');
    await otherTenant.events.return();
    if (!('events' in first)) throw new Error('not opened');
    await first.events.return();
    const again = await gate.open({ query }, ctx(FULL_ACCESS), 'ws');
    expect(again).toHaveProperty('events');
    if ('events' in again) await again.events.return();
    // Every cancellation reached the transport: nothing is left open upstream.
    expect(open).toBe(0);
  });
});
