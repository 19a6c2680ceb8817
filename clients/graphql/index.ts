/**
 * Typed GraphQL operations: the documents in ./operations, typed by graphql-codegen's client preset
 * into ./generated (`npm run clients:generate`), and a small client that sends them.
 *
 * ```ts
 * import { createGraphqlClient, PublicTenantDocument } from './clients/graphql';
 *
 * const graph = createGraphqlClient({ url: 'https://api.example.com/graphql', tenant: tenantId, apiKey });
 * const { publicTenant } = await graph.request(PublicTenantDocument);   // typed: { id: string, name: string }
 * ```
 *
 * Any GraphQL client that takes a TypedDocumentNode (Apollo Client, urql, graphql-request) takes the
 * same documents; test/e2e/graphql-sdk.test.ts runs them against a running server.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print, type GraphQLFormattedError } from 'graphql';

export * from './generated/graphql';

/** Where the graph is and whose it is: the tenant's id and one of its API keys. */
export interface GraphqlClientOptions {
  /** The `/graphql` endpoint. */
  url: string;
  tenant: string;
  apiKey: string;
}

/** An answer carrying GraphQL errors: their list, and whatever data came with them. */
export class GraphqlResponseError extends Error {
  constructor(
    readonly errors: readonly GraphQLFormattedError[],
    readonly data: unknown,
    readonly status: number,
  ) {
    super(errors.map((error) => `${error.extensions?.code ?? 'ERROR'}: ${error.message}`).join('; '));
  }
}

/** Sends typed operations over HTTP POST; throws GraphqlResponseError when the answer has errors. */
export interface GraphqlClient {
  request<Result, Variables>(document: TypedDocumentNode<Result, Variables>, ...variables: Variables extends Record<string, never> ? [] : [Variables]): Promise<Result>;
}

/** A client of the graph at `url` on behalf of `tenant`, authenticated by `apiKey`. */
export function createGraphqlClient({ url, tenant, apiKey }: GraphqlClientOptions): GraphqlClient {
  return {
    async request(document, ...variables) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', TENANT: tenant, 'API-KEY': apiKey },
        body: JSON.stringify({ query: print(document), variables: variables[0] ?? {} }),
      });
      const body = (await res.json()) as { data?: any; errors?: GraphQLFormattedError[] };
      if (body.errors?.length) throw new GraphqlResponseError(body.errors, body.data ?? null, res.status);
      return body.data;
    },
  };
}
