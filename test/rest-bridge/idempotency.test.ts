import { randomUUID } from 'node:crypto';
import express from 'express';
import { testContext } from '../utils/request-context';
import { GATEWAY_SCHEMA } from '../../gateway/database/gateway-schema';
import { PostgresIdempotencyStore } from '../../gateway/database/idempotency-store';
import { errorHandler, sendAnswer } from '../../rest-bridge/http-errors';
import { runIdempotently } from '../../rest-bridge/idempotency';
import type { RouteDefinition } from '../../rest-bridge/types';
import { closeOrm, openOrm } from '../../platform/orm';
import { request } from '../utils/e2e';
import { listen, type ListeningApp } from '../utils/listen';
import { eventually } from '../utils/eventually';
import { startTcpProxy } from '../utils/tcp-proxy';

const ROUTE = { method: 'POST', path: '/payments', operationId: 'pay' } as RouteDefinition;

describe('Idempotency-Key on retryable POSTs (PostgreSQL store)', () => {
  let orm: Awaited<ReturnType<typeof openOrm>>;
  let server: ListeningApp;
  let url: string;
  let runs = 0;
  let gate: Promise<void> = Promise.resolve();
  let failNext = false;
  const tenantId = randomUUID();

  beforeAll(async () => {
    orm = await openOrm(GATEWAY_SCHEMA, process.env.DATABASE_URL!);
    const store = new PostgresIdempotencyStore(orm);
    const app = express();
    app.use(express.json());
    app.post('/payments', async (req, res) => {
      const answer = await runIdempotently(store, req.get('idempotency-key'), tenantId, ROUTE, req.body, async () => {
        runs += 1;
        await gate;
        if (failNext) {
          failNext = false;
          return { status: 500, body: { detail: 'Internal server error' } };
        }
        // A domain rule's refusal: the work ran but wrote nothing (its transaction rolled back).
        if (req.body.amountCents < 0) return { status: 422, body: { detail: [{ type: 'value_error', loc: ['body', 'amountCents'], msg: 'Value error, must not be negative' }] } };
        if (req.body.amountCents === 0) return { status: 409, body: { detail: 'Nothing due' } };
        return { status: 200, body: { paymentId: randomUUID(), amountCents: req.body.amountCents } };
      });
      sendAnswer(res, answer);
    });
    app.use(errorHandler(() => undefined, () => testContext()));
    server = await listen(app);
    url = `${server.base}/payments`;
  });
  afterAll(async () => {
    await server.close();
    await closeOrm(orm);
  });

  const pay = (key: string | null, body: unknown) =>
    request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { 'Idempotency-Key': key } : {}) }, body: JSON.stringify(body) });

  it('replays the first response for a retry whose response was lost, running the work once', async () => {
    const key = randomUUID();
    const before = runs;
    // The client gives up before reading the answer (a dropped response), then retries.
    const controller = new AbortController();
    const first = fetch(url, { method: 'POST', signal: controller.signal, headers: { 'content-type': 'application/json', 'Idempotency-Key': key }, body: JSON.stringify({ amountCents: 500 }) });
    await eventually(() => runs > before, { what: 'the first request running' });
    controller.abort();
    await first.catch(() => undefined);
    // Until the abandoned first request completes on the server, a retry is a 409 (and runs nothing).
    const retry = await eventually(async () => {
      const answer = await pay(key, { amountCents: 500 });
      return answer.status === 409 ? null : answer;
    });
    const again = await pay(key, { amountCents: 500 });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(retry.body);
    expect(runs - before).toBe(1);
  });

  it('refuses the same key with another body (422)', async () => {
    const key = randomUUID();
    expect((await pay(key, { amountCents: 100 })).status).toBe(200);
    const reused = await pay(key, { amountCents: 999 });
    expect(reused.status).toBe(422);
    expect(reused.body.detail[0]).toMatchObject({ type: 'value_error', loc: ['header', 'idempotency-key'] });
  });

  it('answers 409 to a retry while the first is still running', async () => {
    const key = randomUUID();
    let release!: () => void;
    gate = new Promise((r) => (release = r));
    const started = runs;
    const first = pay(key, { amountCents: 1 });
    await eventually(() => runs > started, { what: 'the first request running' });
    const concurrent = await pay(key, { amountCents: 1 });
    expect(concurrent.status).toBe(409);
    expect(concurrent.body).toEqual({ detail: 'A request with this Idempotency-Key is still being processed' });
    release();
    gate = Promise.resolve();
    expect((await first).status).toBe(200);
  });

  it('does not keep a 5xx: the retry runs again', async () => {
    const key = randomUUID();
    failNext = true;
    expect((await pay(key, { amountCents: 7 })).status).toBe(500);
    const retry = await pay(key, { amountCents: 7 });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('does not keep a refusal (4xx): the corrected request with the same key runs, and only its answer is kept', async () => {
    const key = randomUUID();
    const refused = await pay(key, { amountCents: -5 });
    expect(refused.status).toBe(422);
    // The same refused request again is refused again by the rule, not replayed from the store.
    const again = await pay(key, { amountCents: -5 });
    expect(again.status).toBe(422);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    const before = runs;
    const corrected = await pay(key, { amountCents: 5 });
    expect(corrected.status).toBe(200);
    expect(corrected.headers.get('idempotent-replayed')).toBeNull();
    const replay = await pay(key, { amountCents: 5 });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(corrected.body);
    expect(runs - before).toBe(1);
    // A conflict is a refusal too: nothing is kept under its key.
    const conflictKey = randomUUID();
    expect((await pay(conflictKey, { amountCents: 0 })).status).toBe(409);
    const [row] = await orm.em.getConnection().execute(`select count(*)::int as n from gateway.idempotency_keys where tenant_id = ? and key = ?`, [tenantId, conflictKey]);
    expect(row.n).toBe(0);
  });

  it('lets a dead claim be taken over, and the late first request then changes nothing', async () => {
    const store = new PostgresIdempotencyStore(orm);
    const key = randomUUID();
    const first = await store.begin(tenantId, key, 'same-request');
    expect(first).toHaveProperty('owner');
    // The first holder went quiet past its lock (a crash, a stuck worker): a retry takes the key over.
    await orm.em.getConnection().execute(`update gateway.idempotency_keys set locked_until = now() - interval '1 second' where tenant_id = ? and key = ?`, [tenantId, key]);
    const second = await store.begin(tenantId, key, 'same-request');
    expect(second).toHaveProperty('owner');
    await store.complete(tenantId, key, (first as { owner: string }).owner, { status: 200, body: '"late"' });
    await store.abandon(tenantId, key, (first as { owner: string }).owner);
    await store.complete(tenantId, key, (second as { owner: string }).owner, { status: 201, body: '"winner"' });
    expect(await store.begin(tenantId, key, 'same-request')).toEqual({ status: 201, body: '"winner"' });
  });

  it('releases a failed request\'s key once the database is back, when it was down for the release', async () => {
    // The store reaches PostgreSQL through a proxy the test cuts: the database "restarts".
    const target = new URL(process.env.DATABASE_URL!);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const viaProxy = new URL(target);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const proxied = await openOrm(GATEWAY_SCHEMA, viaProxy.toString());
    const store = new PostgresIdempotencyStore(proxied, 60);
    try {
      const key = randomUUID();
      const claim = (await store.begin(tenantId, key, 'outage-request')) as { owner: string };
      await proxy.cut();
      // The request failed (its 503 was this outage); the release cannot reach the database either, and does not throw.
      await store.abandon(tenantId, key, claim.owner);
      expect(store.pendingReleases).toBe(1);
      // Meanwhile a retry through a gateway that reaches the database finds the key taken: 409.
      expect(await new PostgresIdempotencyStore(orm).begin(tenantId, key, 'outage-request')).toHaveProperty('inProgressSeconds');
      await proxy.restore();
      // Released within seconds of the database's return, not after the 60 s lock.
      await eventually(() => store.pendingReleases === 0 || undefined, { what: 'the key released' });
      expect(await new PostgresIdempotencyStore(orm).begin(tenantId, key, 'outage-request')).toHaveProperty('owner');
    } finally {
      store.stop();
      await closeOrm(proxied);
      await proxy.close();
    }
  });

  it('runs every request without the header, and rejects a malformed key', async () => {
    const before = runs;
    await pay(null, { amountCents: 1 });
    await pay(null, { amountCents: 1 });
    expect(runs - before).toBe(2);
    expect((await pay('has space', { amountCents: 1 })).status).toBe(422);
  });
});
