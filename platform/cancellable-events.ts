const DONE: IteratorReturnResult<void> = { done: true, value: undefined };

/**
 * An event stream whose `return()` cancels at once: a subscription's results, a migration's
 * suggestions. Not an `async function*`: a generator's `return()` waits for the `next()` in
 * progress, so a client that left would keep the upstream work (an LLM request, a subgraph's
 * stream) running until its next event. Here `return()`, `throw()` and disposal run `cancel`
 * straight away, once however often they are called, and every later `next()` is done without
 * asking `next` again; a `next()` already waiting ends as `cancel` makes it end.
 */
export function cancellableEvents<T>(next: () => Promise<IteratorResult<T, void>>, cancel: () => Promise<void> | void): AsyncGenerator<T, void, undefined> {
  let cancelled: Promise<void> | undefined;
  // Called synchronously: the upstream work stops before `return()` yields to anything else.
  const stop = () => (cancelled ??= (async () => cancel())());
  const events: AsyncGenerator<T, void, undefined> = {
    next: () => (cancelled ? Promise.resolve(DONE) : next()),
    async return() {
      await stop();
      return DONE;
    },
    async throw(error: unknown) {
      await stop();
      throw error;
    },
    [Symbol.asyncIterator]: () => events,
    [Symbol.asyncDispose]: () => stop(),
  };
  return events;
}
