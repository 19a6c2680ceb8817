import {
  GraphQLError,
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  isInterfaceType,
  Kind,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type GraphQLType,
  type SelectionSetNode,
  type ValidationRule,
} from 'graphql';

/** How many list types wrap a field's type (`[[X]]` is two). */
function listLevels(type: GraphQLType): number {
  let levels = 0;
  let current = getNullableType(type);
  while (isListType(current)) {
    levels += 1;
    current = getNullableType(current.ofType);
  }
  return levels;
}

/**
 * Refuses an operation that nests more than `max` list fields along one path, fragments followed.
 * Every list multiplies the answer by its length, and the graph's relations cycle
 * (`merchantAccounts { locations { merchantAccounts ... } } }`, answered by one subgraph in one
 * fetch): GraphQL Armor's depth and cost rules bound the levels but not their lengths, so a
 * depth allowed for objects could still grow the answer as length^depth.
 */
export function maxListDepthRule(max: number): ValidationRule {
  return (context) => {
    const schema: GraphQLSchema = context.getSchema();
    // A fragment's nesting does not depend on where it is spread: computed once, so reusing a fragment cannot make this exponential.
    const fragmentDepth = new Map<string, number>();
    const depthOf = (selectionSet: SelectionSetNode, parent: GraphQLNamedType | undefined, entered: Set<string>): number => {
      let deepest = 0;
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) {
          const field = parent && (isObjectType(parent) || isInterfaceType(parent)) ? parent.getFields()[selection.name.value] : undefined;
          if (!field) continue;
          const below = selection.selectionSet ? depthOf(selection.selectionSet, getNamedType(field.type), entered) : 0;
          deepest = Math.max(deepest, listLevels(field.type) + below);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
          deepest = Math.max(deepest, depthOf(selection.selectionSet, type, entered));
        } else {
          const name = selection.name.value;
          if (!fragmentDepth.has(name)) {
            const fragment: FragmentDefinitionNode | null | undefined = context.getFragment(name);
            // A fragment that spreads itself is refused by graphql-js's own rule.
            if (!fragment || entered.has(name)) continue;
            entered.add(name);
            fragmentDepth.set(name, depthOf(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value), entered));
            entered.delete(name);
          }
          deepest = Math.max(deepest, fragmentDepth.get(name)!);
        }
      }
      return deepest;
    };
    return {
      OperationDefinition(operation) {
        const depth = depthOf(operation.selectionSet, schema.getRootType(operation.operation) ?? undefined, new Set());
        if (depth > max) context.reportError(new GraphQLError(`List nesting limit of ${max} exceeded, found ${depth}.`, { nodes: [operation] }));
      },
    };
  };
}
