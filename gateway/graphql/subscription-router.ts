import { Kind, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import type { OperationResult, RequestContext } from '../../schema/request-context';
import type { PreparedOperation } from '../../schema/single-operation';
import type { SubgraphName } from '../../platform/subgraph-definition';

/** A subscription's results; `return()` cancels it, upstream work included. */
export type SubscriptionEvents = AsyncGenerator<OperationResult, void, undefined>;

/** What a transport is asked to open: the operation as the client sent it, already parsed. */
export interface SubscriptionRequest {
  query: string;
  document: DocumentNode;
  variables: Record<string, unknown> | null | undefined;
  operationName?: string | null;
}

/**
 * Opens a subscription on the subgraph that owns it: in-process or over HTTP
 * (subscription-transports.ts). Resolves once the subscription is open or refused; a refusal is
 * a single result with errors and no data, as graphql-js answers before the first event. A
 * subgraph that cannot be reached is a ServiceUnavailableError.
 */
export interface SubscriptionTransport {
  open(owner: SubgraphName, request: SubscriptionRequest, ctx: RequestContext): Promise<SubscriptionEvents>;
}

/** The single root field of a subscription operation, or an error message. */
export function subscriptionField(document: DocumentNode, operationName?: string | null): string | { error: string } {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
  if (!operation) return { error: 'Could not determine which operation to run' };
  if (operation.operation !== 'subscription') return { error: `Only subscriptions are served here; send ${operation.operation === 'query' ? 'queries' : 'mutations'} to /graphql over HTTP` };
  const fields = operation.selectionSet.selections.filter((s) => s.kind === Kind.FIELD);
  if (fields.length !== 1 || operation.selectionSet.selections.length !== 1) return { error: 'A subscription must select exactly one root field' };
  return fields[0].kind === Kind.FIELD ? fields[0].name.value : { error: 'A subscription must select exactly one root field' };
}

/**
 * The one way into subscriptions, for `/graphql/stream` and the REST event streams alike: finds
 * the subgraph that declares the root field (Apollo Gateway plans no subscriptions, see
 * docs/architecture.md, Stack notes) and opens it there through the run mode's transport.
 */
export class SubscriptionRouter {
  constructor(
    private readonly owners: ReadonlyMap<string, SubgraphName>,
    private readonly transport: SubscriptionTransport,
  ) {}

  /** The subgraph that declares a `Subscription` root field, if any does. */
  ownerOf(field: string): SubgraphName | undefined {
    return this.owners.get(field);
  }

  /** Opens a checked subscription (`/graphql/stream` parsed and validated it on the API schema). */
  open(request: SubscriptionRequest, field: string, ctx: RequestContext): Promise<SubscriptionEvents> {
    const owner = this.owners.get(field);
    if (!owner) throw new Error(`no subgraph owns the subscription field ${field}`);
    return this.transport.open(owner, request, ctx);
  }

  /** Opens one of the REST bridge's fixed documents, parsed and validated at start-up; a document that names no owned subscription is a bug in the route table, so it throws. */
  subscribe({ source, document }: PreparedOperation, variables: Record<string, unknown>, ctx: RequestContext): Promise<SubscriptionEvents> {
    const field = subscriptionField(document);
    if (typeof field !== 'string') throw new Error(`not a subscription document: ${field.error}`);
    return this.open({ query: source, document, variables }, field, ctx);
  }
}
