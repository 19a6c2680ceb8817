import {
  getNamedType,
  isAbstractType,
  isCompositeType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { FULL_ACCESS, type Grants } from '../../schema/scopes';
import { maskValue, PHI_FIELDS, PHI_ROW_MEMBERS, type MaskKind } from './phi-fields';

type Data = Record<string, unknown>;

/**
 * Minimum necessary (docs/access.md): for a caller without `patients:read`, the patient fields of
 * an answer (phi-fields.ts) are masked, on `/graphql`, subscriptions and every REST route alike, whichever
 * subgraph answered. Whether an operation can reach such a field at all is worked out once per
 * operation, so the usual answer is not walked; a full key or `patients:read` skips it at once.
 */
export class PhiMask {
  private readonly reaches = new WeakMap<OperationDefinitionNode, boolean>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fields: Readonly<Record<string, MaskKind>> = PHI_FIELDS,
    private readonly rowMembers: Readonly<Record<string, Readonly<Record<string, MaskKind>>>> = PHI_ROW_MEMBERS,
  ) {
    const missing = [...Object.keys(fields), ...Object.keys(rowMembers)].filter((name) => {
      const [type, field] = name.split('.');
      const found = schema.getType(type);
      return !(isObjectType(found) && found.getFields()[field]);
    });
    if (missing.length) throw new Error(`gateway/access/phi-fields.ts names fields the graph lacks: ${missing.join(', ')}`);
  }

  /** Masks, in place, the patient fields of an operation's data when `granted` lacks `patients:read`. */
  apply(document: DocumentNode, operation: OperationDefinitionNode, data: Data | null | undefined, granted: Grants | null | undefined): void {
    // No grant at all (undefined) is a call nobody authenticated: the platform's own, or a public route, none of which answers patients.
    if (!data || granted === undefined || granted === FULL_ACCESS || granted?.has('patients:read')) return;
    if (!this.canReach(document, operation)) return;
    const root = this.rootType(operation);
    if (root) this.maskObject(document, operation.selectionSet, root, data);
  }

  /** Whether any selection of the operation can reach a patient field. */
  canReach(document: DocumentNode, operation: OperationDefinitionNode): boolean {
    let reaches = this.reaches.get(operation);
    if (reaches === undefined) {
      const root = this.rootType(operation);
      reaches = root ? this.selects(document, operation.selectionSet, root, new Set()) : false;
      this.reaches.set(operation, reaches);
    }
    return reaches;
  }

  private rootType(operation: OperationDefinitionNode): GraphQLObjectType | null | undefined {
    return operation.operation === 'query' ? this.schema.getQueryType() : operation.operation === 'mutation' ? this.schema.getMutationType() : this.schema.getSubscriptionType();
  }

  private selects(document: DocumentNode, selectionSet: SelectionSetNode, type: GraphQLCompositeType, seen: Set<string>): boolean {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const { kind, rows, field } = this.fieldOf(type, selection.name.value);
        if (kind || rows) return true;
        const named = field && getNamedType(field.type);
        if (selection.selectionSet && named && isCompositeType(named) && this.selects(document, selection.selectionSet, named, seen)) return true;
      } else {
        const next = this.fragmentOf(document, selection, type, seen);
        if (next && this.selects(document, next.selectionSet, next.type, seen)) return true;
      }
    }
    return false;
  }

  private maskObject(document: DocumentNode, selectionSet: SelectionSetNode, type: GraphQLCompositeType, value: unknown): void {
    if (Array.isArray(value)) {
      for (const item of value) this.maskObject(document, selectionSet, type, item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const data = value as Data;
    // An abstract type's object names its runtime type when the document asked; without it every possible type is assumed (more masked, never less).
    const runtime = typeof data.__typename === 'string' ? this.schema.getType(data.__typename) : undefined;
    const concrete = runtime && isObjectType(runtime) ? runtime : type;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        if (!Object.hasOwn(data, key)) continue;
        const { kind, rows, field } = this.fieldOf(concrete, selection.name.value);
        if (kind) data[key] = maskValue(kind, data[key]);
        if (rows && Array.isArray(data[key])) for (const row of data[key]) maskRow(rows, row);
        const named = field && getNamedType(field.type);
        if (selection.selectionSet && named && isCompositeType(named)) this.maskObject(document, selection.selectionSet, named, data[key]);
      } else {
        const next = this.fragmentOf(document, selection, concrete, new Set());
        if (next) this.maskObject(document, next.selectionSet, next.type, data);
      }
    }
  }

  /** A field of a type, or of any type an abstract one may be, with the mask its name carries there (or, for rows, the masks of their members). */
  private fieldOf(type: GraphQLCompositeType, name: string): { kind: MaskKind | undefined; rows: Readonly<Record<string, MaskKind>> | undefined; field: GraphQLField<unknown, unknown> | undefined } {
    const candidates = isAbstractType(type) ? this.schema.getPossibleTypes(type) : [type];
    let field: GraphQLField<unknown, unknown> | undefined;
    for (const candidate of candidates) {
      const kind = this.fields[`${candidate.name}.${name}`];
      const rows = this.rowMembers[`${candidate.name}.${name}`];
      field ??= candidate.getFields()[name];
      if (kind || rows) return { kind, rows, field: candidate.getFields()[name] };
    }
    return { kind: undefined, rows: undefined, field };
  }

  /** The selection set and type an inline fragment or a spread stands for (a spread once per walk). */
  private fragmentOf(document: DocumentNode, selection: SelectionSetNode['selections'][number], type: GraphQLCompositeType, seen: Set<string>): { selectionSet: SelectionSetNode; type: GraphQLCompositeType } | null {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const condition = selection.typeCondition ? this.schema.getType(selection.typeCondition.name.value) : type;
      return condition && isCompositeType(condition) ? { selectionSet: selection.selectionSet, type: condition } : null;
    }
    if (selection.kind !== Kind.FRAGMENT_SPREAD || seen.has(selection.name.value)) return null;
    seen.add(selection.name.value);
    const fragment = document.definitions.find((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value);
    const condition = fragment && this.schema.getType(fragment.typeCondition.name.value);
    return fragment && condition && isCompositeType(condition) ? { selectionSet: fragment.selectionSet, type: condition } : null;
  }
}

/** Masks, in place, the members of one JSON row that name a patient. */
function maskRow(members: Readonly<Record<string, MaskKind>>, row: unknown): void {
  if (row === null || typeof row !== 'object') return;
  for (const [member, kind] of Object.entries(members)) if (Object.hasOwn(row, member)) (row as Data)[member] = maskValue(kind, (row as Data)[member]);
}
