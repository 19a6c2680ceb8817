import {
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  valueFromASTUntyped,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { CONNECTION_PAGE } from '../../schema/list-cursor';

/** Arguments that say how many objects a list field answers (Relay's `first`/`last` of every connection; `perPage` of documents written before them). */
const PAGE_SIZE_ARGUMENTS: ReadonlySet<string> = new Set(['perPage', 'first', 'last']);

/** Objects one unit pays for, and list values in arguments one unit pays for (GitHub's "per 100"). */
export const UNIT = 100;

/** Bound on a cost, so that products of page sizes stay exact integers; any budget refuses it. */
const MAX_COST = 1_000_000_000;

/** What a selection asks for: objects its list fields answer, and list values its arguments carry, each counted as often as it runs. */
interface Work {
  objects: number;
  values: number;
}

const NONE: Work = { objects: 0, values: 0 };

/**
 * The operation a request runs: the one named by `operationName`, or the document's only one; null
 * when neither (Apollo Server refuses such a request without running anything).
 */
export function selectOperation(document: DocumentNode, operationName: unknown): OperationDefinitionNode | null {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (typeof operationName === 'string' && operationName !== '') return operations.find((o) => o.name?.value === operationName) ?? null;
  return operations.length === 1 ? operations[0] : null;
}

/**
 * The rate-limit cost of running `operation` with `variables`, in the manner of GitHub's GraphQL
 * points (docs/api.md, "Rate limits"), the same for `/graphql` and for a REST route's fixed
 * document: the sum over its root fields (response keys: aliases counted, fragments expanded) of
 *
 *   max(1, ceil(objects / 100)) + floor(values / 100)
 *
 * where `objects` is what its list fields ask for (each `perPage`/`first`/`last`, times the page
 * sizes of the lists around it: 100 patients with 100 notes each are 10,100) and `values` the
 * elements of every list in its arguments, JSON arguments included (an analytics filter's
 * `values`, ids), likewise times the lists around them. Arguments are read from literals and
 * variables, defaults applied. At least 1.
 *
 * Values are read as written, without coercion (graphql-js's coercion cost more than the REST read
 * it charges): a request whose values do not coerce is refused before anything runs, whatever it
 * was charged.
 */
export function operationCost(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: unknown): number {
  const values: Record<string, unknown> = Object.create(null);
  const given = isRecord(variables) ? variables : {};
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const value = Object.hasOwn(given, name) ? given[name] : undefined;
    values[name] = value === undefined && definition.defaultValue ? valueFromASTUntyped(definition.defaultValue) : value;
  }
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f] as const));
  const walker = new CostWalker(schema, fragments, values);
  const rootType = schema.getRootType(operation.operation) ?? undefined;
  // Fields under one response key are merged by the executor: they run once, their selections together.
  const perKey = new Map<string, Work>();
  for (const { field, parent } of walker.rootFields(operation.selectionSet, rootType)) {
    const key = (field.alias ?? field.name).value;
    const work = walker.field(field, parent);
    const seen = perKey.get(key) ?? NONE;
    perKey.set(key, { objects: bounded(seen.objects + work.objects), values: bounded(seen.values + work.values) });
  }
  let total = 0;
  for (const { objects, values } of perKey.values()) total += Math.max(1, Math.ceil(objects / UNIT)) + Math.floor(values / UNIT);
  return Math.min(MAX_COST, Math.max(1, total));
}

/** Walks selections once per field as written; a fragment's work is computed once and reused (linear in the document, whatever its spreads). */
class CostWalker {
  private readonly fragmentWork = new Map<string, Work>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    private readonly variables: Record<string, unknown>,
  ) {}

  /** The root selection's fields with their parent type, fragments and inline fragments expanded (each fragment once). */
  rootFields(selectionSet: SelectionSetNode, type: GraphQLNamedType | undefined): { field: FieldNode; parent: GraphQLNamedType | undefined }[] {
    const found: { field: FieldNode; parent: GraphQLNamedType | undefined }[] = [];
    const expanded = new Set<string>();
    const pending: [SelectionSetNode, GraphQLNamedType | undefined][] = [[selectionSet, type]];
    while (pending.length > 0) {
      const [set, parent] = pending.pop()!;
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) found.push({ field: selection, parent });
        else if (selection.kind === Kind.INLINE_FRAGMENT) pending.push([selection.selectionSet, this.typeNamed(selection.typeCondition?.name.value) ?? parent]);
        else if (!expanded.has(selection.name.value)) {
          expanded.add(selection.name.value);
          const fragment = this.fragments.get(selection.name.value);
          if (fragment) pending.push([fragment.selectionSet, this.typeNamed(fragment.typeCondition.name.value)]);
        }
      }
    }
    return found;
  }

  /** One field's work: its own list and argument values, and its selection's, times its page size. */
  field(node: FieldNode, parent: GraphQLNamedType | undefined): Work {
    const definition = parent && (isObjectType(parent) || isInterfaceType(parent)) ? parent.getFields()[node.name.value] : undefined;
    let pageSize: number | null = null;
    let values = 0;
    for (const argument of node.arguments ?? []) {
      const value = valueFromASTUntyped(argument.value, this.variables);
      if (PAGE_SIZE_ARGUMENTS.has(argument.name.value) && pageSize === null) pageSize = pageSizeOf(value);
      values += listValues(value);
    }
    if (pageSize === null && definition) pageSize = defaultPageSize(definition);
    const inner = node.selectionSet ? this.selection(node.selectionSet, definition ? getNamedType(definition.type) : undefined) : NONE;
    const times = pageSize ?? 1;
    return { objects: bounded((pageSize ?? 0) + times * inner.objects), values: bounded(values + times * inner.values) };
  }

  private selection(set: SelectionSetNode, type: GraphQLNamedType | undefined): Work {
    let objects = 0;
    let values = 0;
    for (const selection of set.selections) {
      let work: Work;
      if (selection.kind === Kind.FIELD) work = this.field(selection, type);
      else if (selection.kind === Kind.INLINE_FRAGMENT) work = this.selection(selection.selectionSet, this.typeNamed(selection.typeCondition?.name.value) ?? type);
      else work = this.fragment(selection.name.value);
      objects = bounded(objects + work.objects);
      values = bounded(values + work.values);
    }
    return { objects, values };
  }

  private fragment(name: string): Work {
    const known = this.fragmentWork.get(name);
    if (known) return known;
    const fragment = this.fragments.get(name);
    // A cycle (invalid, refused by validation) counts nothing the second time round.
    this.fragmentWork.set(name, NONE);
    const work = fragment ? this.selection(fragment.selectionSet, this.typeNamed(fragment.typeCondition.name.value)) : NONE;
    this.fragmentWork.set(name, work);
    return work;
  }

  private typeNamed(name: string | undefined): GraphQLNamedType | undefined {
    return name ? this.schema.getType(name) : undefined;
  }
}

/** A page size as given: a whole number, or null when it is none (refused before anything runs). */
function pageSizeOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.floor(value)) : null;
}

/**
 * The page size a list field answers when its request names none: its argument's default, or for
 * a connection (whose `first` has no schema default) the first 20 rows it answers then.
 */
function defaultPageSize(definition: GraphQLField<unknown, unknown>): number | null {
  for (const argument of definition.args) {
    if (PAGE_SIZE_ARGUMENTS.has(argument.name)) return pageSizeOf(argument.defaultValue) ?? (argument.name === 'first' ? CONNECTION_PAGE.first : null);
  }
  return null;
}

/** Elements of every list inside `value`, at any depth (a JSON scalar's arrays included). */
function listValues(value: unknown): number {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (Array.isArray(item)) {
      count += item.length;
      for (const element of item) if (element !== null && typeof element === 'object') pending.push(element);
    } else if (item !== null && typeof item === 'object') {
      for (const element of Object.values(item)) if (element !== null && typeof element === 'object') pending.push(element);
    }
  }
  return count;
}

function bounded(n: number): number {
  return Math.min(MAX_COST * UNIT, n);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
