import { buildSchema, parse } from 'graphql';
import { operationCost, selectOperation } from '../../../gateway/graphql/graphql-cost';

/** Connections as the graph has them: `first`/`last` without a schema default, 20 rows when neither is given. */
const schema = buildSchema(`
  type PageInfo { hasNextPage: Boolean! endCursor: String }
  type Note { id: ID! }
  type NoteEdge { cursor: String! node: Note! }
  type NoteConnection { edges: [NoteEdge!]! nodes: [Note!]! pageInfo: PageInfo! totalCount: Int! }
  type Patient { id: ID! notes(first: Int, after: String, last: Int, before: String): NoteConnection! }
  type PatientEdge { cursor: String! node: Patient! }
  type PatientConnection { edges: [PatientEdge!]! nodes: [Patient!]! pageInfo: PageInfo! totalCount: Int! }
  type Query { patients(first: Int, after: String, last: Int, before: String): PatientConnection! }
`);

const cost = (query: string, variables: Record<string, unknown> = {}): number => {
  const document = parse(query);
  return operationCost(schema, document, selectOperation(document, undefined)!, variables);
};

describe('the rate-limit cost of a connection', () => {
  it('reads first or last, 20 when neither is given, and counts edges and nodes once', () => {
    expect(cost('{ patients { totalCount } }')).toBe(1);
    expect(cost('{ patients(first: 100) { nodes { id } } }')).toBe(1);
    expect(cost('query($n: Int) { patients(last: $n) { edges { node { id } } } }', { n: 100 })).toBe(1);
    // 100 patients with their first 100 notes each: 10,100 objects, whether read as edges or nodes.
    expect(cost('{ patients(first: 100) { nodes { notes(first: 100) { nodes { id } } } } }')).toBe(101);
    expect(cost('{ patients(first: 100) { edges { node { notes(first: 100) { edges { node { id } } } } } } }')).toBe(101);
    // Without first: 20 patients, 20 notes each.
    expect(cost('{ patients { nodes { notes { nodes { id } } } } }')).toBe(5);
  });
});
