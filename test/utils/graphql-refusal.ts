import type { HttpResult } from './e2e';

/** The one GraphQL error of a refusal `/graphql` made before any operation ran (docs/api.md, Errors). */
export interface GraphQLRefusal {
  message: string;
  extensions: { code: string; [key: string]: unknown };
}

/**
 * Reads a refusal of `/graphql` as a GraphQL client does (errors[0]), checking it is one: no `data`,
 * no REST `detail`, exactly one error with a code.
 */
export function graphQLRefusal(res: Pick<HttpResult, 'body'>): GraphQLRefusal {
  expect(res.body).not.toHaveProperty('detail');
  expect(res.body).not.toHaveProperty('data');
  expect(res.body.errors).toHaveLength(1);
  expect(typeof res.body.errors[0].extensions?.code).toBe('string');
  return res.body.errors[0];
}
