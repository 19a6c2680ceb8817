import DataLoader from 'dataloader';
import type { SubgraphContext } from '../../platform/context';

// One loader per request context and name: batches never mix requests (or tenants).
const loaders = new WeakMap<SubgraphContext, Map<string, DataLoader<string, unknown>>>();

/**
 * A request-scoped DataLoader: every `load` made while GraphQL resolves one level (the
 * `_entities` of a federated fetch, the items of a list) joins one batch, answered by one
 * statement. `batch` returns a map; keys it lacks load as undefined.
 */
export function requestLoader<V>(ctx: SubgraphContext, name: string, batch: (keys: string[]) => Promise<Map<string, V>>): DataLoader<string, V | undefined> {
  let byName = loaders.get(ctx);
  if (!byName) loaders.set(ctx, (byName = new Map()));
  let loader = byName.get(name) as DataLoader<string, V | undefined> | undefined;
  if (!loader) {
    loader = new DataLoader<string, V | undefined>(async (keys) => {
      const found = await batch([...keys]);
      return keys.map((key) => found.get(key));
    });
    byName.set(name, loader as DataLoader<string, unknown>);
  }
  return loader;
}
