import {
  getNamedType,
  isEnumType,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLEnumType,
  type GraphQLSchema,
} from 'graphql';
import { enumSpellings } from '../schema/enum-spellings';

/**
 * The graph spells enum values SCREAMING_SNAKE_CASE; REST keeps the contract's spellings (`line`,
 * `createdDate`, `created_date`), which are the values the subgraphs store (docs/api.md, Schema
 * style). This is the bridge's one station for the translation, both ways, from
 * schema/enum-spellings.json.
 */

/** How REST spells a graph enum value: its stored value where that differs, else the name itself. */
export function restSpelling(type: GraphQLEnumType, name: string): string {
  return enumSpellings()[type.name]?.[name] ?? name;
}

/** Every value of the enum as REST spells it, in the graph's order. */
export function restSpellings(type: GraphQLEnumType): string[] {
  return type.getValues().map((value) => restSpelling(type, value.name));
}

/**
 * The graph name a REST client meant: its own spelling, the graph name, or failing both a
 * case-insensitive match of either when exactly one value has it (`sort_direction=DESC` has always worked).
 */
export function graphName(type: GraphQLEnumType, text: string): string | undefined {
  const names = type.getValues().map((value) => value.name);
  const exact = names.find((name) => restSpelling(type, name) === text) ?? names.find((name) => name === text);
  if (exact) return exact;
  const folded = text.toLowerCase();
  const matches = names.filter((name) => name.toLowerCase() === folded || restSpelling(type, name).toLowerCase() === folded);
  return matches.length === 1 ? matches[0] : undefined;
}

/** Where enum values sit in an operation's `data`: response key -> what is below it, or the enum at a leaf. */
interface SpellingTree {
  [key: string]: SpellingTree | GraphQLEnumType;
}

/**
 * A function giving `data` of the document's operation with every enum value in REST's spelling,
 * or the identity when the selection holds no enum that needs it. Worked out once per route, at start-up.
 */
export function restSpeller(schema: GraphQLSchema, document: DocumentNode): (data: Record<string, unknown>) => Record<string, unknown> {
  // A named fragment's fields would need following from each spread; route documents write their selections out.
  if (document.definitions.some((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)) throw new Error('REST route documents use no named fragments');
  const root: SpellingTree = {};
  const path: SpellingTree[] = [root];
  const typeInfo = new TypeInfo(schema);
  let any = false;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      [Kind.FIELD]: {
        enter(node) {
          const parent = path[path.length - 1];
          const key = node.alias?.value ?? node.name.value;
          const named = typeInfo.getType() ? getNamedType(typeInfo.getType()!) : undefined;
          if (named && isEnumType(named) && enumSpellings()[named.name]) {
            parent[key] = named;
            any = true;
          }
          const child = (parent[key] ??= {}) as SpellingTree;
          path.push(isEnumType(child) ? {} : child);
        },
        leave() {
          path.pop();
        },
      },
    }),
  );
  if (!any) return (data) => data;
  return (data) => spell(data, root) as Record<string, unknown>;
}

function spell(value: unknown, tree: SpellingTree | GraphQLEnumType): unknown {
  if (value === null || value === undefined) return value;
  if (Array.isArray(value)) return value.map((item) => spell(item, tree));
  if (isEnumType(tree)) return typeof value === 'string' ? restSpelling(tree, value) : value;
  if (typeof value !== 'object') return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [key, below] of Object.entries(tree)) {
    if (key in out && (isEnumType(below) || Object.keys(below).length)) out[key] = spell(out[key], below);
  }
  return out;
}
