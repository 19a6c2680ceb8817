import { Kind, parse, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';

/**
 * How many root fields a GraphQL request runs, its rate-limit cost: the distinct response keys
 * (aliases counted) of the selected operation's root selection, with fragments and inline
 * fragments expanded; at least 1. A document that does not parse, or names no operation it holds,
 * costs 1: Apollo Server refuses it without running anything.
 */
export function rootFieldCount(query: unknown, operationName: unknown, maxTokens: number): number {
  if (typeof query !== 'string') return 1;
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens, noLocation: true });
  } catch {
    return 1;
  }
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation =
    typeof operationName === 'string' && operationName !== '' ? operations.find((o) => o.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
  if (!operation) return 1;
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f.selectionSet] as const),
  );
  const keys = new Set<string>();
  const expanded = new Set<string>();
  const pending: SelectionSetNode[] = [operation.selectionSet];
  while (pending.length > 0) {
    for (const selection of pending.pop()!.selections) {
      if (selection.kind === Kind.FIELD) keys.add((selection.alias ?? selection.name).value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) pending.push(selection.selectionSet);
      else if (!expanded.has(selection.name.value)) {
        // Each fragment once: a cycle is invalid anyway, and repeating one adds no new keys.
        expanded.add(selection.name.value);
        const spread = fragments.get(selection.name.value);
        if (spread) pending.push(spread);
      }
    }
  }
  return Math.max(1, keys.size);
}
