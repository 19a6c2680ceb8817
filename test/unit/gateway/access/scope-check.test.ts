import { parse, type OperationDefinitionNode } from 'graphql';
import { ScopeCheck } from '../../../../gateway/access/scope-check';
import { MissingScopeError } from '../../../../schema/errors';
import { FULL_ACCESS, type Scope } from '../../../../schema/scopes';

const check = new ScopeCheck();

/** Runs the check on a document's one operation with these scopes; the scope named by the refusal, or null. */
function refusal(source: string, scopes: Scope[] | typeof FULL_ACCESS | null): string | null {
  const document = parse(source);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')!;
  try {
    check.authorize(document, operation, scopes === null || scopes === FULL_ACCESS ? scopes : new Set(scopes));
    return null;
  } catch (error) {
    if (error instanceof MissingScopeError) return error.scope;
    throw error;
  }
}

describe('ScopeCheck', () => {
  it('lets a full key through and names the one scope a restricted key lacks', () => {
    expect(refusal('{ patients { totalCount } }', FULL_ACCESS)).toBeNull();
    expect(refusal('{ patients { totalCount } }', ['patients:read'])).toBeNull();
    expect(refusal('{ patients { totalCount } }', ['billing:read'])).toBe('patients:read');
    expect(refusal('mutation { createPatient(input: {}) { id } }', ['patients:read'])).toBe('patients:write');
  });

  it('asks for every root field, aliased or behind fragments, the first missing named', () => {
    expect(refusal('{ a: tenant { id } b: members { totalCount } }', ['tenant:read'])).toBe('billing:read');
    expect(refusal('{ ... on Query { members { totalCount } } }', ['tenant:read'])).toBe('billing:read');
    expect(refusal('query { ...F } fragment F on Query { ...G } fragment G on Query { apiKeys { totalCount } }', ['tenant:read'])).toBe('keys:manage');
    expect(refusal('{ tenant { id } members { totalCount } }', ['tenant:read', 'billing:read'])).toBeNull();
  });

  it('needs nothing for introspection and health, and grants nothing to a caller without scopes', () => {
    expect(refusal('{ __typename tenantHealth { status } }', [])).toBeNull();
    expect(refusal('{ __schema { queryType { name } } }', null)).toBeNull();
    expect(refusal('{ tenant { id } }', null)).toBe('tenant:read');
  });

  it('requires one scope of a route that runs no operation (the audit export)', () => {
    expect(() => check.require('audit:read', FULL_ACCESS)).not.toThrow();
    expect(() => check.require('audit:read', new Set<Scope>(['audit:read']))).not.toThrow();
    expect(() => check.require('audit:read', new Set<Scope>(['patients:read']))).toThrow(new MissingScopeError('audit:read'));
    expect(() => check.require('audit:read', null)).toThrow(MissingScopeError);
  });

  it('checks subscriptions by their root field', () => {
    expect(refusal('subscription { migrateTemplateQuestion(templateId: "t", questionId: "q") { status } }', ['notes:read'])).toBe('notes:write');
  });
});
