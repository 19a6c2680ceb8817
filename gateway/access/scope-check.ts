import { Kind, type DocumentNode, type FragmentDefinitionNode, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { MissingScopeError } from '../../schema/errors';
import { FULL_ACCESS, type Grants, type Scope } from '../../schema/scopes';
import { ROOT_FIELD_SCOPES, type FieldGrant } from './scope-table';

type RootType = keyof typeof ROOT_FIELD_SCOPES;

const ROOT_TYPE: Record<OperationDefinitionNode['operation'], RootType> = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' };

/**
 * The one place a caller's scopes are checked (docs/access.md), for `/graphql`, `/graphql/stream`
 * and every REST route alike: each surface hands it the operation it is about to run, before
 * anything of it runs, and answers the MissingScopeError in its own form.
 */
export class ScopeCheck {
  // By operation node: REST routes hold theirs for good, Apollo keeps a document per query hash.
  private readonly needed = new WeakMap<OperationDefinitionNode, readonly Scope[]>();

  constructor(private readonly table = ROOT_FIELD_SCOPES) {}

  /** Checks the table against the graph, at start-up: every root field has a grant and no grant names a field the graph lacks. Throws naming each problem. */
  verifyAgainst(schema: GraphQLSchema): void {
    const table = this.table;
    const problems: string[] = [];
    for (const root of Object.keys(table) as RootType[]) {
      const type = root === 'Query' ? schema.getQueryType() : root === 'Mutation' ? schema.getMutationType() : schema.getSubscriptionType();
      const fields = Object.keys(type?.getFields() ?? {});
      for (const field of fields) if (!Object.hasOwn(table[root], field)) problems.push(`${root}.${field} has no scope in gateway/access/scope-table.ts`);
      for (const field of Object.keys(table[root])) if (!fields.includes(field)) problems.push(`${root}.${field} is in gateway/access/scope-table.ts but not in the graph`);
    }
    if (problems.length > 0) throw new Error(`the scope table does not match the graph: ${problems.join('; ')}`);
  }

  /** Throws MissingScopeError naming the first scope the operation needs and `granted` lacks; a full key passes at once. */
  authorize(document: DocumentNode, operation: OperationDefinitionNode, granted: Grants | null): void {
    if (granted === FULL_ACCESS) return;
    for (const scope of this.scopesOf(document, operation)) {
      if (!granted?.has(scope)) throw new MissingScopeError(scope);
    }
  }

  /** Throws MissingScopeError when `granted` lacks `scope`: for a route that runs no GraphQL operation (EDGE_ROUTE_SCOPES). */
  require(scope: Scope, granted: Grants | null): void {
    if (granted !== FULL_ACCESS && !granted?.has(scope)) throw new MissingScopeError(scope);
  }

  /** The scopes an operation needs, each once, in the order its root fields ask for them. */
  scopesOf(document: DocumentNode, operation: OperationDefinitionNode): readonly Scope[] {
    let scopes = this.needed.get(operation);
    if (!scopes) {
      const grants = this.table[ROOT_TYPE[operation.operation]];
      const found = new Set<Scope>();
      for (const field of rootFields(document, operation.selectionSet)) {
        // Introspection needs nothing; a field the table lacks (verifyAgainst saw to it that the graph has none) needs what nobody holds.
        const grant: FieldGrant | 'nobody' = field.startsWith('__') ? 'any' : Object.hasOwn(grants, field) ? grants[field] : 'nobody';
        if (grant === 'nobody') throw new MissingScopeError(`${ROOT_TYPE[operation.operation]}.${field}`);
        if (grant !== 'any') found.add(grant);
      }
      scopes = [...found];
      this.needed.set(operation, scopes);
    }
    return scopes;
  }
}

/** The root fields a selection set asks for, through inline fragments and fragment spreads (validation has refused cycles). */
function rootFields(document: DocumentNode, selectionSet: SelectionSetNode, seen = new Set<string>()): string[] {
  const names: string[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) names.push(selection.name.value);
    else if (selection.kind === Kind.INLINE_FRAGMENT) names.push(...rootFields(document, selection.selectionSet, seen));
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = document.definitions.find((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value);
      if (fragment) names.push(...rootFields(document, fragment.selectionSet, seen));
    }
  }
  return names;
}
