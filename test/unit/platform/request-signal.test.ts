import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClientClosedRequestError } from '../../../schema/errors';
import { requestSignal } from '../../../platform/request-signal';

/** A real server whose handler the test writes; each request's signal is handed to the test. */
async function serve(handler: (res: http.ServerResponse, signal: AbortSignal) => void) {
  const signals: AbortSignal[] = [];
  const server = http.createServer((req, res) => {
    const signal = requestSignal(res);
    signals.push(signal);
    // Read the body: a request's own 'close' (body read) must not count as the client leaving.
    req.resume();
    req.on('end', () => handler(res, signal));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, signals, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

/** Resolves once the signal aborts. */
const aborted = (signal: AbortSignal) => new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve())));

describe('requestSignal: aborted when the client leaves before its answer, never after it', () => {
  it('stays unaborted for an answered request, its body read and its connection closed after', async () => {
    const closed: Promise<void>[] = [];
    const server = await serve((res) => {
      closed.push(new Promise((resolve) => res.once('close', () => resolve())));
      res.end('ok');
    });
    try {
      const answer = await fetch(server.url, { method: 'POST', body: 'x'.repeat(10_000), headers: { connection: 'close' } });
      expect(await answer.text()).toBe('ok');
      await Promise.all(closed);
      expect(server.signals[0].aborted).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('aborts with ClientClosedRequestError when the client destroys its socket while the answer is pending', async () => {
    let handled!: () => void;
    const reached = new Promise<void>((resolve) => (handled = resolve));
    const server = await serve(() => handled());
    try {
      const req = http.request(server.url, { method: 'POST', agent: false });
      req.on('error', () => undefined);
      req.end('body');
      await reached;
      expect(server.signals[0].aborted).toBe(false);
      req.destroy();
      await aborted(server.signals[0]);
      expect(server.signals[0].reason).toBeInstanceOf(ClientClosedRequestError);
      expect(server.signals[0].reason.code).toBe('CLIENT_CLOSED_REQUEST');
    } finally {
      await server.close();
    }
  });

  it('is aborted at once when made after the connection closed', async () => {
    let handled!: () => void;
    const reached = new Promise<void>((resolve) => (handled = resolve));
    let made!: (signal: AbortSignal) => void;
    const late = new Promise<AbortSignal>((resolve) => (made = resolve));
    const server = await serve((res) => {
      // Made once the close has been seen, as a context made after a slow body read would be.
      res.once('close', () => setImmediate(() => made(requestSignal(res))));
      handled();
    });
    try {
      const req = http.request(server.url, { method: 'POST', agent: false });
      req.on('error', () => undefined);
      req.end('body');
      await reached;
      req.destroy();
      const signal = await late;
      expect(signal.aborted).toBe(true);
      expect(signal.reason).toBeInstanceOf(ClientClosedRequestError);
    } finally {
      await server.close();
    }
  });
});
