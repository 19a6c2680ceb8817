import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { closeOrm, openOrm, poolCounts } from '../../../platform/orm';
import { readPoolOf } from '../../../platform/speed/read-pool';
import { queryPrepared, type PreparedStatement } from '../../../platform/speed/prepared-statement';
import { tenantSubgraph } from '../../../subgraphs/tenant';
import { TenantScope } from '../../../platform/tenant-scope';
import { TENANT_BY_ID, TenantRepository } from '../../../subgraphs/tenant/repositories/tenant.repository';

const COUNT_TENANTS: PreparedStatement = { name: 'test_count_tenants_by_name', text: 'select count(*)::int as n from tenant.tenants where name = $1' };

describe('queryPrepared (real PostgreSQL)', () => {
  let orm: MikroORM;
  beforeAll(async () => {
    orm = await openOrm(tenantSubgraph, process.env.DATABASE_URL!);
  });
  afterAll(() => closeOrm(orm));

  const insertTenant = (em = orm.em, id = randomUUID(), name = `Prepared ${id}`) =>
    em
      .getConnection()
      .execute(`insert into tenant.tenants (id, name, timezone, locale, currency, settings, created_at, updated_at) values (?, ?, 'UTC', 'en-US', 'USD', '{}', now(), now())`, [id, name], 'run', em.getTransactionContext())
      .then(() => ({ id, name }));

  it('runs the same named statement many times, concurrently, on pooled connections', async () => {
    const { id, name } = await insertTenant();
    const rows = await Promise.all(Array.from({ length: 40 }, () => queryPrepared<{ id: string; name: string }>(orm.em.fork(), TENANT_BY_ID, [id])));
    expect(rows.every((r) => r.length === 1 && r[0].id === id && r[0].name === name)).toBe(true);
    const unknown = await queryPrepared(orm.em.fork(), TENANT_BY_ID, [randomUUID()]);
    expect(unknown).toEqual([]);
  });

  it('outside a transaction, reads on the read pool (knex lends none), with the ORM type parsers', async () => {
    const { id } = await insertTenant();
    const knexPool = (orm.em.getConnection().getKnex() as unknown as { client: { pool: { numUsed(): number; numFree(): number } } }).client.pool;
    const knexBefore = knexPool.numUsed() + knexPool.numFree();
    const [row] = await queryPrepared<{ createdAt: unknown }>(orm.em.fork(), TENANT_BY_ID, [id]);
    // timestamptz as text, as MikroORM's driver reads it: the read pool connects with its options.
    expect(typeof row.createdAt).toBe('string');
    expect(readPoolOf(orm.em)!.counts()).toEqual({ used: 0, free: expect.any(Number), pending: 0 });
    expect(readPoolOf(orm.em)!.counts().free).toBeGreaterThan(0);
    expect(knexPool.numUsed() + knexPool.numFree()).toBe(knexBefore);
    // The metrics and the shutdown's idle wait count the read pool with the ORM's.
    expect(poolCounts(orm).free).toBeGreaterThanOrEqual(readPoolOf(orm.em)!.counts().free);
  });

  it('reads the Date columns of the tenant record as the entity does', async () => {
    const { id } = await insertTenant();
    const record = await new TenantRepository(orm.em.fork(), TenantScope.ofStoredRow(id)).current();
    expect(record?.createdAt).toBeInstanceOf(Date);
    expect(Number.isNaN(record!.createdAt.getTime())).toBe(false);
  });

  it('reads only the columns PublicTenant shows for the public read', async () => {
    const { id, name } = await insertTenant();
    const record = await new TenantRepository(orm.em.fork(), TenantScope.ofStoredRow(id)).currentPublic();
    expect(Object.keys(record!).sort()).toEqual(['currency', 'id', 'locale', 'logoAssetId', 'name', 'phone', 'primaryColor', 'receiptLogoAssetId', 'timezone', 'website']);
    expect(record).toMatchObject({ id, name, timezone: 'UTC', currency: 'USD' });
    expect(await new TenantRepository(orm.em.fork(), TenantScope.ofStoredRow(randomUUID())).currentPublic()).toBeNull();
  });

  it('inside a transaction, runs on the transaction connection: it sees the uncommitted row, others do not', async () => {
    const name = `Uncommitted ${randomUUID()}`;
    const rollback = new Error('roll back on purpose');
    await expect(
      orm.em.fork().transactional(async (tx) => {
        await insertTenant(tx, randomUUID(), name);
        const inside = await queryPrepared<{ n: number }>(tx, COUNT_TENANTS, [name]);
        const outside = await queryPrepared<{ n: number }>(orm.em.fork(), COUNT_TENANTS, [name]);
        expect(inside[0].n).toBe(1);
        expect(outside[0].n).toBe(0);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    const after = await queryPrepared<{ n: number }>(orm.em.fork(), COUNT_TENANTS, [name]);
    expect(after[0].n).toBe(0);
  });

  it('gives a failing statement back to the pool: the next queries still run', async () => {
    const bad: PreparedStatement = { name: 'test_bad_cast', text: 'select $1::int as n' };
    for (let i = 0; i < 15; i++) await expect(queryPrepared(orm.em.fork(), bad, ['not a number'])).rejects.toThrow();
    const { id } = await insertTenant();
    expect(await queryPrepared(orm.em.fork(), TENANT_BY_ID, [id])).toHaveLength(1);
  });

  it('closeOrm ends the read pool: no connection left, and later reads fail', async () => {
    const own = await openOrm(tenantSubgraph, process.env.DATABASE_URL!);
    const { id } = await insertTenant();
    expect(await queryPrepared(own.em.fork(), TENANT_BY_ID, [id])).toHaveLength(1);
    expect(readPoolOf(own.em)!.counts().free).toBe(1);
    await closeOrm(own);
    expect(readPoolOf(own.em)!.counts()).toEqual({ used: 0, free: 0, pending: 0 });
    await expect(queryPrepared(own.em.fork(), TENANT_BY_ID, [id])).rejects.toThrow('read pool is closed');
  });
});
