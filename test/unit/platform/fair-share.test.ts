import { RateLimitedError } from '../../../schema/errors';
import { FairShare, type FairShareLimits } from '../../../platform/fair-share';

/** A unit of work the test finishes by hand. */
function gate() {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { done, open, fail };
}

/** Lets settled promises run their continuations (a released slot's hand-over). */
const flush = () => new Promise((resolve) => setImmediate(resolve));

const share = (limits: Partial<FairShareLimits>) => new FairShare('test', { perKey: 2, total: 10, maxWaitMs: 60_000, maxQueuedPerKey: 64, ...limits });

/** Starts a unit of `key` that runs until its gate opens; records the order units started in. */
function starter(limiter: FairShare, started: string[]) {
  return (key: string, name = key, signal?: AbortSignal) => {
    const g = gate();
    const result = limiter.run(
      key,
      async () => {
        started.push(name);
        await g.done;
        return name;
      },
      signal,
    );
    result.catch(() => undefined);
    return { ...g, result };
  };
}

describe('FairShare: per-key concurrency with a fair queue across keys', () => {
  afterEach(() => jest.useRealTimers());

  it('runs at most perKey units of one key; the rest wait in their key queue', async () => {
    const limiter = share({ perKey: 2 });
    const started: string[] = [];
    const start = starter(limiter, started);
    const units = [1, 2, 3, 4, 5].map((i) => start('a', `a${i}`));
    await flush();
    expect(started).toEqual(['a1', 'a2']);
    expect(limiter.counts('a')).toEqual({ running: 2, waiting: 3 });
    units[0].open();
    await flush();
    expect(started).toEqual(['a1', 'a2', 'a3']);
    for (const unit of units) unit.open();
    await Promise.all(units.map((u) => u.result));
    expect(limiter.counts()).toEqual({ running: 0, waiting: 0 });
  });

  it('runs at most total units of every key together, and one key burst never holds a slot another key needs', async () => {
    const limiter = share({ perKey: 2, total: 3 });
    const started: string[] = [];
    const start = starter(limiter, started);
    const burst = Array.from({ length: 16 }, (_, i) => start('a', `a${i}`));
    const b = start('b');
    await flush();
    // The burst takes its own two slots; b gets the third at once, however long a's queue.
    expect(started).toEqual(['a0', 'a1', 'b']);
    expect(limiter.counts('a')).toEqual({ running: 2, waiting: 14 });
    const c = start('c');
    await flush();
    expect(limiter.counts('c')).toEqual({ running: 0, waiting: 1 });
    expect(limiter.counts()).toEqual({ running: 3, waiting: 15 });
    // The slot b frees goes to c, which waits for the process's cap, not to a's own queue.
    b.open();
    await flush();
    expect(started.at(-1)).toBe('c');
    for (const unit of [...burst, c]) unit.open();
    await Promise.all(burst.map((u) => u.result));
    expect(limiter.counts()).toEqual({ running: 0, waiting: 0 });
  });

  it('hands each freed slot to the least recently served key with waiting work (round-robin)', async () => {
    const limiter = share({ perKey: 1, total: 1 });
    const started: string[] = [];
    const start = starter(limiter, started);
    const names = ['a0', 'a1', 'a2', 'b1', 'a3', 'b2', 'c1', 'a4'];
    const units = new Map(names.map((name) => [name, start(name[0], name)]));
    const admitted: string[] = [];
    limiter.listen((event) => event.kind === 'admitted' && admitted.push(event.key));
    // One unit runs at a time: finish whichever started last, and see who is let in next.
    for (let i = 0; i < names.length; i++) {
      await flush();
      units.get(started.at(-1)!)!.open();
    }
    await Promise.all([...units.values()].map((u) => u.result));
    expect(started).toEqual(['a0', 'b1', 'c1', 'a1', 'b2', 'a2', 'a3', 'a4']);
    expect(admitted).toEqual(['b', 'c', 'a', 'b', 'a', 'a', 'a']);
  });

  it('refuses a unit that waited past maxWaitMs with RATE_LIMITED and a retry hint, and keeps no slot for it', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    const limiter = share({ perKey: 1, maxWaitMs: 2_500 });
    const started: string[] = [];
    const start = starter(limiter, started);
    const first = start('a', 'first');
    const late = start('a', 'late');
    await flush();
    expect(limiter.counts('a')).toEqual({ running: 1, waiting: 1 });
    jest.advanceTimersByTime(2_499);
    expect(limiter.counts('a')).toEqual({ running: 1, waiting: 1 });
    jest.advanceTimersByTime(1);
    const error = await late.result.catch((e) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.retryAfterSeconds).toBe(3);
    expect(error.extensions()).toEqual({ retryAfter: 3 });
    expect(error.message).toBe('Too many expensive requests in progress for this tenant; retry after 3 s');
    expect(limiter.counts('a')).toEqual({ running: 1, waiting: 0 });
    first.open();
    await first.result;
    expect(limiter.counts()).toEqual({ running: 0, waiting: 0 });
    expect(started).toEqual(['first']);
  });

  it('refuses at once a unit whose key already has maxQueuedPerKey waiting; other keys still queue', async () => {
    const limiter = share({ perKey: 1, total: 1, maxQueuedPerKey: 2 });
    const started: string[] = [];
    const start = starter(limiter, started);
    const units = [start('a', 'a0'), start('a', 'a1'), start('a', 'a2')];
    const over = start('a', 'a3');
    const b = start('b');
    expect(await over.result.catch((e) => e)).toBeInstanceOf(RateLimitedError);
    expect(limiter.counts('a')).toEqual({ running: 1, waiting: 2 });
    expect(limiter.counts('b')).toEqual({ running: 0, waiting: 1 });
    for (const unit of [...units, b]) unit.open();
    await Promise.all([...units, b].map((u) => u.result));
    expect(started).toEqual(['a0', 'b', 'a1', 'a2']);
  });

  it('frees the slot of a unit that throws, and drops a waiting unit whose request was aborted', async () => {
    const limiter = share({ perKey: 1 });
    const started: string[] = [];
    const start = starter(limiter, started);
    const failing = start('a', 'failing');
    const controller = new AbortController();
    const abandoned = start('a', 'abandoned', controller.signal);
    const next = start('a', 'next');
    const events: string[] = [];
    limiter.listen((event) => events.push(`${event.kind} ${event.key}`));
    await flush();
    controller.abort(new Error('client went away'));
    expect((await abandoned.result.catch((e) => e)).message).toBe('client went away');
    expect(limiter.counts('a')).toEqual({ running: 1, waiting: 1 });
    failing.fail(new Error('statement failed'));
    expect((await failing.result.catch((e) => e)).message).toBe('statement failed');
    await flush();
    expect(started).toEqual(['failing', 'next']);
    next.open();
    await next.result;
    expect(limiter.counts()).toEqual({ running: 0, waiting: 0 });
    expect(events).toEqual(['dropped a', 'released a', 'admitted a', 'released a']);
    // An already aborted request never waits, and is dropped too.
    await expect(limiter.run('a', async () => 'ran', AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    expect(events.slice(4)).toEqual(['dropped a']);
  });

  it('refuses limits that are not whole numbers of at least 1', () => {
    expect(() => share({ total: 0 })).toThrow('FairShare: total must be a whole number of at least 1 (got 0)');
  });
});
