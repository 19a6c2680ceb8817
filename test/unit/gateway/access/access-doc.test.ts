import { readFileSync } from 'node:fs';
import { accessDocPath, accessTables, servedSchema, withTables } from '../../../../gateway/access/access-doc';
import { ScopeCheck } from '../../../../gateway/access/scope-check';
import { ROOT_FIELD_SCOPES } from '../../../../gateway/access/scope-table';

describe('docs/access.md', () => {
  it('holds the tables the scope check reads (npm run docs:access rewrites them)', () => {
    const doc = readFileSync(accessDocPath(), 'utf8');
    expect(withTables(doc, accessTables())).toBe(doc);
  });
});

describe('the scope table', () => {
  it('covers every root field of the served graph, and names none it lacks', () => {
    expect(() => new ScopeCheck().verifyAgainst(servedSchema())).not.toThrow();
  });

  it('stops the gateway when a root field has no scope', () => {
    const { apiKeys: _left, ...Query } = ROOT_FIELD_SCOPES.Query;
    expect(() => new ScopeCheck({ ...ROOT_FIELD_SCOPES, Query }).verifyAgainst(servedSchema())).toThrow(/Query\.apiKeys has no scope/);
  });

  it('stops the gateway when it names a field the graph lacks', () => {
    const Mutation = { ...ROOT_FIELD_SCOPES.Mutation, dropEverything: 'tenant:write' as const };
    expect(() => new ScopeCheck({ ...ROOT_FIELD_SCOPES, Mutation }).verifyAgainst(servedSchema())).toThrow(/Mutation\.dropEverything is in/);
  });
});
