import type { MikroORM } from '@mikro-orm/postgresql';
import pino from 'pino';
import { listenForKeyRevocations, type KeyRevocationListener } from '../../gateway/http/key-revocation-listener';
import { closeOrm, openOrm } from '../../platform/orm';
import { tenantSubgraph } from '../../subgraphs/tenant';
import { ApiKeyService } from '../../subgraphs/tenant/services/api-key.service';
import { TenantService } from '../../subgraphs/tenant/services/tenant.service';
import { eventually } from '../utils/eventually';

// Listeners of this jest worker only: other test files' servers listen on the same database.
const LISTENERS = `select pid from pg_stat_activity where application_name = 'hpp-key-revocations:${process.pid}' and datname = current_database()`;

/** Records what the listener reports; `next(matching)` resolves on the next report that matches. */
function recorder() {
  const heard: (string | null)[] = [];
  const waiters: { matches: (keyId: string | null) => boolean; resolve: () => void }[] = [];
  return {
    heard,
    onRevoked: (keyId: string | null) => {
      heard.push(keyId);
      for (const waiter of waiters.filter((w) => w.matches(keyId))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    },
    next: (matches: (keyId: string | null) => boolean, ms = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`nothing matching heard within ${ms} ms; heard ${JSON.stringify(heard)}`)), ms);
        waiters.push({ matches, resolve: () => (clearTimeout(timer), resolve()) });
      }),
  };
}

/** Cross-process revocation: a revocation committed through any connection reaches every listening process. */
describe('listenForKeyRevocations (real PostgreSQL)', () => {
  let orm: MikroORM;
  let listener: KeyRevocationListener | null = null;
  beforeAll(async () => {
    orm = await openOrm(tenantSubgraph, process.env.DATABASE_URL!);
  });
  afterEach(async () => {
    await listener?.close();
    listener = null;
  });
  afterAll(() => closeOrm(orm));

  const keys = () => new ApiKeyService(orm.em.fork());
  const issueKey = async () => keys().issue((await new TenantService(orm.em.fork()).create('Revocation Clinic')).id);
  const listen = (onRevoked: (keyId: string | null) => void) => listenForKeyRevocations(process.env.DATABASE_URL!, onRevoked, pino({ level: 'silent' }));
  const listenerPids = async () => (await orm.em.fork().getConnection().execute<{ pid: number }[]>(LISTENERS)).map((row) => row.pid);

  it('hears a revocation committed through another connection, and not one rolled back', async () => {
    const seen = recorder();
    listener = await listen(seen.onRevoked);
    expect(seen.heard).toEqual([null]); // connected: whatever was cached before may be stale
    const [kept, revoked] = [await issueKey(), await issueKey()];

    const rollback = new Error('roll back on purpose');
    await expect(
      orm.em.fork().transactional(async (em) => {
        await new ApiKeyService(em).revoke(kept.id);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    const heard = seen.next((id) => id === revoked.id);
    await keys().revoke(revoked.id);
    // Notifications arrive in commit order: had the rolled-back one been sent, it would be here already.
    await heard;
    expect(seen.heard).not.toContain(kept.id);
    expect(await keys().verify(kept.apiKey)).not.toBeNull();
    expect(await keys().verify(revoked.apiKey)).toBeNull();
  });

  it('reconnects after its connection is killed, reports the gap, and hears later revocations', async () => {
    const before = new Set(await listenerPids());
    const seen = recorder();
    listener = await listen(seen.onRevoked);
    const mine = (await listenerPids()).filter((pid) => !before.has(pid));
    expect(mine).toHaveLength(1);

    const reconnected = seen.next((id) => id === null);
    seen.heard.length = 0;
    await orm.em.fork().getConnection().execute('select pg_terminate_backend(?)', [mine[0]]);
    await reconnected;
    expect((await listenerPids()).filter((pid) => !before.has(pid) && pid !== mine[0])).toHaveLength(1);

    const key = await issueKey();
    const heard = seen.next((id) => id === key.id);
    await keys().revoke(key.id);
    await heard;
  });

  it('closes its connection on close()', async () => {
    const before = new Set(await listenerPids());
    const own = await listen(() => undefined);
    const mine = (await listenerPids()).filter((pid) => !before.has(pid));
    expect(mine).toHaveLength(1);
    await own.close();
    await eventually(async () => !(await listenerPids()).includes(mine[0]), { what: 'the listener connection closed' });
  });

  it('an unknown key id is NotFound', async () => {
    await expect(keys().revoke('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ message: 'API key not found' });
  });
});
