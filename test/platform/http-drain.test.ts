import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import express from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import { drainOnShutdown, waitUntilIdle } from '../../platform/http-drain';
import { closeOrm, closeWhenIdle, openOrm, poolBusy } from '../../platform/orm';
import { tenantSubgraph } from '../../subgraphs/tenant';
import { listen, type ListeningApp } from '../utils/listen';

/** A gate a handler waits on until the test opens it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** A server whose `/slow` waits for the gate, `/stream` is an event stream that never ends, `/fast` answers at once. */
async function startServer(slow: Promise<void>, arrived: () => void = () => undefined) {
  const app = express();
  app.get('/fast', (_req, res) => void res.json({ ok: true }));
  app.get('/slow', async (_req, res) => {
    arrived();
    await slow;
    res.json({ finished: true });
  });
  app.get('/stream', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(': open\n\n');
  });
  const served = await listen(app);
  return { ...served, drain: drainOnShutdown(served.server) };
}

/** GET over a fresh connection: status, headers and body, or the socket error. */
function get(base: string, path: string): Promise<{ status: number; connection?: string; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = httpRequest(`${base}${path}`, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
      res.on('error', (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }));
    });
    req.on('error', (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }));
    req.end();
  });
}

/** Resolves with the first response chunk of an event stream, and with its end (or error) later. */
function openStream(base: string): Promise<{ ended: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}/stream`, (res) => {
      const ended = new Promise<string>((done) => {
        res.on('end', () => done('end'));
        res.on('error', (error) => done((error as NodeJS.ErrnoException).code ?? error.message));
        res.on('close', () => done('close'));
      });
      res.once('data', () => resolve({ ended }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('drainOnShutdown (real HTTP)', () => {
  let server: (ListeningApp & { drain: (graceMs: number) => Promise<void> }) | undefined;
  afterEach(async () => {
    if (server?.server.listening) await server.close();
    server = undefined;
  });

  it('lets an in-flight request finish, with Connection: close, while refusing new connections', async () => {
    const slow = gate();
    const arrived = gate();
    server = await startServer(slow.opened, arrived.open);
    const inFlight = get(server.base, '/slow');
    // In flight means the handler has it (a fixed sleep lost the race on a loaded machine).
    await arrived.opened;
    let drained = false;
    const draining = server.drain(10_000).then(() => (drained = true));
    await sleep(100);
    expect(await get(server.base, '/fast')).toEqual({ error: 'ECONNREFUSED' });
    expect(drained).toBe(false);
    slow.open();
    expect(await inFlight).toEqual({ status: 200, connection: 'close', body: JSON.stringify({ finished: true }) });
    await draining;
    expect(drained).toBe(true);
  });

  it('cuts event streams at once instead of waiting out the grace period', async () => {
    const slow = gate();
    server = await startServer(slow.opened);
    const stream = await openStream(server.base);
    const outcome = await Promise.race([server.drain(60_000).then(() => 'drained'), sleep(5_000, undefined, { ref: false }).then(() => 'still waiting')]);
    expect(outcome).toBe('drained');
    expect(await stream.ended).not.toBe('end');
  });

  it('cuts a request that outlives the grace period', async () => {
    const arrived = gate();
    server = await startServer(new Promise<void>(() => undefined), arrived.open);
    const inFlight = get(server.base, '/slow');
    await arrived.opened;
    await server.drain(200);
    expect(await inFlight).toEqual({ error: 'ECONNRESET' });
  });
});

describe('waitUntilIdle', () => {
  it('waits for two quiet looks in a row and reports a timeout', async () => {
    let busy = true;
    setTimeout(() => (busy = false), 100);
    expect(await waitUntilIdle(() => busy, 5_000)).toBe(true);
    expect(await waitUntilIdle(() => true, 100)).toBe(false);
  });
});

describe('closeWhenIdle (real PostgreSQL)', () => {
  let orm: MikroORM;
  beforeEach(async () => {
    orm = await openOrm(tenantSubgraph, process.env.DATABASE_URL!);
  });
  afterEach(() => closeOrm(orm));

  it('lets queries still waiting for a pooled connection run before closing', async () => {
    // More queries than the pool has connections: some wait for one when the close begins.
    const queries = Array.from({ length: 25 }, () => orm.em.fork().getConnection().execute('select pg_sleep(0.1) as slept'));
    await sleep(20);
    expect(poolBusy(orm)).toBe(true);
    await closeWhenIdle(orm, 10_000);
    const outcomes = await Promise.allSettled(queries);
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    expect(await orm.isConnected()).toBe(false);
  });
});
