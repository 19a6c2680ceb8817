import type { EntityManager } from '@mikro-orm/postgresql';
import { createSubgraphContext } from '../../../platform/context';

/** A root entity manager that records its forks and the filter parameters set on them. */
function recordingRoot() {
  const forks: Array<{ filterParams: Record<string, unknown> }> = [];
  const root = {
    fork() {
      const fork = {
        filterParams: {} as Record<string, unknown>,
        setFilterParams(name: string, args: unknown) {
          fork.filterParams[name] = args;
        },
      };
      forks.push(fork);
      return fork;
    },
  };
  return { root: root as unknown as EntityManager, forks };
}

describe('createSubgraphContext', () => {
  it('forks the entity manager on first use only, once, with the tenant filter set', () => {
    const { root, forks } = recordingRoot();
    const ctx = createSubgraphContext(root, { tenantId: 't-1', requestId: 'r-1' }, 'http://api', { dep: 1 });
    expect(forks).toHaveLength(0);
    const em = ctx.em;
    expect(ctx.em).toBe(em);
    expect(forks).toHaveLength(1);
    expect(forks[0].filterParams).toEqual({ tenant: { tenantId: 't-1' } });
    expect(ctx).toMatchObject({ tenantId: 't-1', requestId: 'r-1', publicUrl: 'http://api', deps: { dep: 1 } });
    expect(ctx.scope?.tenantId).toBe('t-1');
  });

  it('sets no tenant filter and no scope for an internal call without a tenant', () => {
    const { root, forks } = recordingRoot();
    const ctx = createSubgraphContext(root, { tenantId: null, requestId: 'r-2' }, 'http://api', null);
    void ctx.em;
    expect(forks[0].filterParams).toEqual({});
    expect(ctx.scope).toBeNull();
  });

  it('reads on the root entity manager without forking, and on the fork once there is one (it may hold a transaction)', () => {
    const { root, forks } = recordingRoot();
    const ctx = createSubgraphContext(root, { tenantId: 't-1', requestId: 'r-3' }, 'http://api', null);
    expect(ctx.reads).toBe(root);
    expect(forks).toHaveLength(0);
    const em = ctx.em;
    expect(ctx.reads).toBe(em);
  });

  // Apollo Server runs a subgraph's operation on such a copy of its context (a `#private` field broke it).
  it('works on a copy made of its prototype and own properties', () => {
    const { root, forks } = recordingRoot();
    const ctx = createSubgraphContext(root, { tenantId: 't-1', requestId: 'r-4' }, 'http://api', null);
    const copy = Object.assign(Object.create(Object.getPrototypeOf(ctx)), ctx) as typeof ctx;
    expect(copy.reads).toBe(root);
    expect(copy.em).toBe(forks[0]);
    expect(copy.scope?.tenantId).toBe('t-1');
  });

  it('gives each request its own fork', () => {
    const { root, forks } = recordingRoot();
    const a = createSubgraphContext(root, { tenantId: 't-1', requestId: 'a' }, 'http://api', null);
    const b = createSubgraphContext(root, { tenantId: 't-2', requestId: 'b' }, 'http://api', null);
    expect(a.em).not.toBe(b.em);
    expect(forks.map((f) => f.filterParams)).toEqual([{ tenant: { tenantId: 't-1' } }, { tenant: { tenantId: 't-2' } }]);
  });

  // An own getter (an object literal's `get em()`) gives every context its own hidden class, which
  // carried each request's fork into V8's old generation (platform/context.ts).
  it('reads `em` through a getter shared by all contexts, not one of its own', () => {
    const { root } = recordingRoot();
    const a = createSubgraphContext(root, { tenantId: 't-1', requestId: 'a' }, 'http://api', null);
    const b = createSubgraphContext(root, { tenantId: 't-1', requestId: 'b' }, 'http://api', null);
    expect(Object.getOwnPropertyDescriptor(a, 'em')).toBeUndefined();
    expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(b));
    expect(Object.keys(a)).not.toContain('em');
  });
});
