import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse } from 'graphql';
import { schemaDir } from '../../schema/paths';
import type { SubgraphName } from '../../platform/subgraph-definition';

/**
 * Maps each `Subscription` root field to the subgraph that declares it, read from the checked-in
 * subgraph SDL. Apollo Gateway plans no subscriptions, so the edge routes them itself (docs/architecture.md, Stack notes).
 */
export function subscriptionOwners(names: SubgraphName[]): Map<string, SubgraphName> {
  const owners = new Map<string, SubgraphName>();
  for (const name of names) {
    const document = parse(readFileSync(join(schemaDir(), `${name}.graphql`), 'utf8'));
    for (const definition of document.definitions) {
      const isSubscription =
        (definition.kind === Kind.OBJECT_TYPE_DEFINITION || definition.kind === Kind.OBJECT_TYPE_EXTENSION) &&
        definition.name.value === 'Subscription';
      if (!isSubscription) continue;
      for (const field of definition.fields ?? []) owners.set(field.name.value, name);
    }
  }
  return owners;
}
