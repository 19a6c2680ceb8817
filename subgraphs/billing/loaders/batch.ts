import type { SubgraphContext } from '../../shared/context';

/** Keys of one pending batch and the promise of its answer. */
interface Batch<V> {
  keys: Set<string>;
  result: Promise<Map<string, V>>;
}

// One pending batch per request context and loader name.
const pending = new WeakMap<SubgraphContext, Map<string, Batch<unknown>>>();

/**
 * DataLoader's scheduling without the dependency: every call made while GraphQL resolves one
 * level (the `_entities` of a federated fetch, the items of a list) joins one batch, which
 * `fetch` answers with a single statement after the current tick. Keys are compared as given.
 */
export function loadBatched<V>(ctx: SubgraphContext, name: string, key: string, fetch: (keys: string[]) => Promise<Map<string, V>>): Promise<V | undefined> {
  let byName = pending.get(ctx);
  if (!byName) pending.set(ctx, (byName = new Map()));
  let batch = byName.get(name) as Batch<V> | undefined;
  if (!batch) {
    const keys = new Set<string>();
    const result = new Promise<Map<string, V>>((resolve, reject) => {
      // After the resolvers of this level queued their keys: the next tick after the promise jobs.
      Promise.resolve().then(() =>
        process.nextTick(() => {
          byName!.delete(name);
          fetch([...keys]).then(resolve, reject);
        }),
      );
    });
    batch = { keys, result };
    byName.set(name, batch as Batch<unknown>);
  }
  batch.keys.add(key);
  return batch.result.then((map) => map.get(key));
}
