import { FirstEventPriority } from '../../../../platform/speed/first-event-priority';

/** Resolves with the order in which the promises settled. */
function settleOrder(entries: Record<string, Promise<unknown>>): { order: string[]; all: Promise<void> } {
  const order: string[] = [];
  const all = Promise.all(Object.entries(entries).map(([name, promise]) => promise.then(() => order.push(name)))).then(() => undefined);
  return { order, all };
}

describe('FirstEventPriority', () => {
  it('lets a stream that sent its first event go on at the next turn when none is starting', async () => {
    const priority = new FirstEventPriority(10_000);
    const done = priority.start();
    done();
    const started = Date.now();
    await priority.holdForStarters();
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('holds a stream until every starting stream has sent its first event', async () => {
    const priority = new FirstEventPriority(10_000);
    const a = priority.start();
    const b = priority.start();
    const c = priority.start();
    a();
    const held = priority.holdForStarters();
    const marker = new Promise((resolve) => setTimeout(resolve, 30));
    const { order, all } = settleOrder({ held, marker });
    await marker;
    expect(order).toEqual(['marker']);
    b();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual(['marker']);
    c();
    await all;
    expect(order).toEqual(['marker', 'held']);
  });

  it('counts a stream once however often it reports, so an ended stream cannot release others early', async () => {
    const priority = new FirstEventPriority(10_000);
    const a = priority.start();
    const b = priority.start();
    a();
    a();
    const held = priority.holdForStarters();
    const { order } = settleOrder({ held });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(order).toEqual([]);
    b();
    await held;
  });

  it('never holds longer than its bound while streams keep starting', async () => {
    const priority = new FirstEventPriority(40);
    priority.start();
    const started = Date.now();
    await priority.holdForStarters();
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(35);
    expect(waited).toBeLessThan(2_000);
  });
});
