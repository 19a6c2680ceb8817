import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { getOperationAST } from 'graphql';
import { createGraphqlClient, GraphqlResponseError, type GraphqlClient } from '../../clients/graphql';
import * as generated from '../../clients/graphql/generated/graphql';

/** The name of a document's operation. */
export const operationName = (document: TypedDocumentNode<any, any>): string => getOperationAST(document)?.name?.value ?? '(anonymous)';

/** Every operation clients/graphql/generated exports (fragments excluded), by name. */
export function generatedOperations(): string[] {
  return Object.entries(generated)
    .filter(([name, value]) => name.endsWith('Document') && typeof value === 'object' && getOperationAST(value as TypedDocumentNode<any, any>))
    .map(([, value]) => operationName(value as TypedDocumentNode<any, any>))
    .sort();
}

/** The SDK's client, remembering the name of every operation it sent, so a test can tell which were never run. */
export function recordingClient(options: Parameters<typeof createGraphqlClient>[0]): GraphqlClient & { sent: Set<string> } {
  const client = createGraphqlClient(options);
  const sent = new Set<string>();
  return {
    sent,
    request: ((document: TypedDocumentNode<any, any>, ...variables: any[]) => {
      sent.add(operationName(document));
      return (client.request as any)(document, ...variables);
    }) as GraphqlClient['request'],
  };
}

/** The GraphqlResponseError a request fails with; fails the test when it succeeds or fails otherwise. */
export async function failure(request: Promise<unknown>): Promise<GraphqlResponseError> {
  try {
    await request;
  } catch (error) {
    if (error instanceof GraphqlResponseError) return error;
    throw error;
  }
  throw new Error('the request succeeded; an error was expected');
}

const spelling = (value: string): string => value.replace(/_/g, '').toLowerCase();

/**
 * Enum values as the running graph spells them, looked up by introspection: the test names a value
 * in any casing (`'createdDate'`, `'created_date'`, `'CREATED_DATE'`) and sends the served one, so
 * the graph's enum casing can change (issue 35, one casing) without this test naming values anew.
 */
export async function servedEnums(url: string, headers: Record<string, string>, names: string[]): Promise<<T extends string>(type: string, value: string) => T> {
  const query = `{ ${names.map((name, i) => `e${i}: __type(name: ${JSON.stringify(name)}) { enumValues { name } }`).join(' ')} }`;
  const res = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  const body = (await res.json()) as { data: Record<string, { enumValues: { name: string }[] } | null> };
  const values = new Map(names.map((name, i) => [name, (body.data[`e${i}`]?.enumValues ?? []).map((v) => v.name)]));
  return <T extends string>(type: string, value: string): T => {
    const served = values.get(type)?.find((name) => spelling(name) === spelling(value));
    if (!served) throw new Error(`the graph has no ${type} value like ${value} (served: ${values.get(type)?.join(', ') ?? 'no such enum'})`);
    return served as T;
  };
}
