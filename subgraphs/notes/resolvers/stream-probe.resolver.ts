import { Arg, Int, Resolver, Root, Subscription } from 'type-graphql';

/** Counts from 1 to `count`, a tick at a time; lets the SSE path be exercised end to end. */
async function* ticks(count: number, intervalMs: number): AsyncGenerator<number> {
  for (let i = 1; i <= count; i += 1) {
    if (i > 1) await new Promise((resolve) => setTimeout(resolve, intervalMs));
    yield i;
  }
}

/**
 * A minimal subscription that proves the gateway routes subscriptions to their owning subgraph
 * over graphql-sse. It stands until the question-migration stream (notes issue) replaces it.
 */
@Resolver()
export class StreamProbeResolver {
  @Subscription(() => Int, {
    description: 'Emits 1..count, 50 ms apart (a probe of the streaming path)',
    subscribe: ({ args }) => ticks(Math.min(Math.max(args.count, 1), 20), 50),
  })
  streamProbe(@Root() tick: number, @Arg('count', () => Int, { defaultValue: 3 }) _count: number): number {
    return tick;
  }
}
