import { operationFromDocument, Supergraph, type Schema } from '@apollo/federation-internals';
import { QueryPlanner, type FetchNode } from '@apollo/query-planner';
import { parse, print, type DocumentNode, type SelectionSetNode } from 'graphql';
import { onlyOperation } from '../../schema/single-operation';

/** A query the gateway answers with one fetch from one subgraph, and that fetch as the gateway would send it. */
export interface SingleFetch {
  subgraph: string;
  /** The subgraph operation's text and its parsed document (the planner's, not the client's). */
  query: string;
  document: DocumentNode;
  operationName: string | undefined;
  /** The client's variables the fetch uses; the gateway sends only these. */
  variableNames: readonly string[];
}

/**
 * Plans `documents` (operations the API schema validates) with Apollo's query planner over the
 * same supergraph as the gateway and keeps the ones whose plan is one root fetch that the gateway
 * would pass through unchanged: a query (never a mutation or subscription), no entity step, no
 * rewrites of the fetched data, and a subgraph selection identical to the client's (so the
 * gateway's result shaping has nothing to add, drop or rename). Done once at start-up for a fixed
 * set (the REST routes'); the planner is dropped after, as it holds a second copy of the query graph.
 */
export function planSingleFetches(supergraphSdl: string, documents: readonly string[]): Map<string, SingleFetch> {
  const supergraph = Supergraph.build(supergraphSdl);
  const planner = new QueryPlanner(supergraph);
  const apiSchema = supergraph.apiSchema();
  const found = new Map<string, SingleFetch>();
  for (const text of documents) {
    const fetch = planOne(planner, apiSchema, parse(text));
    if (fetch) found.set(text, fetch);
  }
  return found;
}

function planOne(planner: QueryPlanner, apiSchema: Schema, document: DocumentNode): SingleFetch | null {
  const client = onlyOperation(document);
  if (client?.operation !== 'query' || document.definitions.length !== 1) return null;
  const node = planner.buildQueryPlan(operationFromDocument(apiSchema, document)).node;
  if (node?.kind !== 'Fetch' || !passesThrough(node)) return null;
  const fetched = parse(node.operation);
  const fetchedOperation = onlyOperation(fetched);
  if (!fetchedOperation || !sameSelection(fetchedOperation.selectionSet, client.selectionSet)) return null;
  return { subgraph: node.serviceName, query: node.operation, document: fetched, operationName: node.operationName, variableNames: node.variableUsages ?? [] };
}

/** A root fetch whose answer the gateway keeps as it comes. */
const passesThrough = (node: FetchNode): boolean =>
  !node.requires?.length && !node.inputRewrites?.length && !node.outputRewrites?.length && !node.contextRewrites?.length && !node.hasDefers;

/** Same fields, aliases, arguments and order; printed without locations, so spacing and comments do not count. */
const sameSelection = (a: SelectionSetNode, b: SelectionSetNode): boolean => print(a) === print(b);
