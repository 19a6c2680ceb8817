import { cancellableEvents } from '../../../platform/cancellable-events';

/**
 * An upstream that hands out `count` events, then waits (like a model still thinking) until it is
 * cancelled; it records how often it was asked and cancelled.
 */
function upstream(count: number) {
  const state = { asked: 0, cancelled: 0 };
  let wake: (() => void) | undefined;
  let sent = 0;
  const next = async (): Promise<IteratorResult<number, void>> => {
    state.asked++;
    if (sent < count) return { done: false, value: sent++ };
    await new Promise<void>((resolve) => (wake = resolve));
    return { done: true, value: undefined };
  };
  const cancel = async () => {
    state.cancelled++;
    wake?.();
  };
  return { next, cancel, state };
}

describe('cancellableEvents', () => {
  it('passes the events through until the upstream ends', async () => {
    let left = 2;
    const events = cancellableEvents<number>(async () => (left-- > 0 ? { done: false, value: left } : { done: true, value: undefined }), () => undefined);
    const seen: number[] = [];
    for await (const event of events) seen.push(event);
    expect(seen).toEqual([1, 0]);
  });

  it('return() cancels at once, while a next() is still waiting, and that next() ends', async () => {
    const { next, cancel, state } = upstream(1);
    const events = cancellableEvents(next, cancel);
    expect(await events.next()).toEqual({ done: false, value: 0 });
    const waiting = events.next();
    // An async generator's return() would wait here for the pending next(), which waits for the cancel: a deadlock.
    expect(await events.return()).toEqual({ done: true, value: undefined });
    expect(state.cancelled).toBe(1);
    expect(await waiting).toEqual({ done: true, value: undefined });
  });

  it('cancels synchronously, before return() yields to anything else', () => {
    const order: string[] = [];
    const events = cancellableEvents(async () => ({ done: true, value: undefined }), () => void order.push('cancelled'));
    void events.return();
    order.push('after return()');
    expect(order).toEqual(['cancelled', 'after return()']);
  });

  it('is done for good after return(), without asking the upstream again', async () => {
    const { next, cancel, state } = upstream(5);
    const events = cancellableEvents(next, cancel);
    await events.next();
    await events.return();
    expect([await events.next(), await events.next()]).toEqual([
      { done: true, value: undefined },
      { done: true, value: undefined },
    ]);
    expect(state.asked).toBe(1);
  });

  it('cancels once, however it is ended: return(), throw(), disposal, a for-await that breaks', async () => {
    const { next, cancel, state } = upstream(5);
    const events = cancellableEvents(next, cancel);
    for await (const event of events) if (event === 1) break;
    await events.return();
    await expect(events.throw(new Error('consumer failed'))).rejects.toThrow('consumer failed');
    await events[Symbol.asyncDispose]();
    expect(state.cancelled).toBe(1);
  });

  it('throw() cancels and rethrows, as a generator without a catch does', async () => {
    const { next, cancel, state } = upstream(5);
    const events = cancellableEvents(next, cancel);
    await expect(events.throw(new Error('consumer failed'))).rejects.toThrow('consumer failed');
    expect(state.cancelled).toBe(1);
    expect(await events.next()).toEqual({ done: true, value: undefined });
  });

  it("a cancel that fails rejects return(), once, for every caller", async () => {
    const events = cancellableEvents(async () => ({ done: true, value: undefined }), () => Promise.reject(new Error('abort failed')));
    await expect(events.return()).rejects.toThrow('abort failed');
    await expect(events.return()).rejects.toThrow('abort failed');
  });
});
