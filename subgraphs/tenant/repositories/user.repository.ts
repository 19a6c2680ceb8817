import type { EntityManager } from '@mikro-orm/postgresql';
import { storedId } from '../../../platform/ids';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { ListSlice } from '../../common/connection';
import { findSlice } from '../../common/keyset';
import type { ListWindow, SortKey } from '../../common/list-window';
import { User } from '../entities/user.entity';

/** The users table: a tenant's people through a scoped instance; signing in (before there is a tenant's request) through `...Unscoped`. */
export class UserRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** A new person of the scope's tenant, in the unit of work. */
  add(fields: { email: string; name: string | null; role: string }): User {
    return this.em.create(User, { ...fields, tenantId: this.scope.tenantId } as never);
  }

  /** A person who is not removed, or null (ids of any shape, other tenants' alike). */
  findCurrent(id: string): Promise<User | null> {
    const key = storedId(id);
    return key ? this.em.findOne(User, { id: key, tenantId: this.scope.tenantId, status: { $ne: 'removed' } }) : Promise.resolve(null);
  }

  /** Whether someone not removed already has this e-mail (case-insensitively). */
  async emailTaken(email: string): Promise<boolean> {
    return (await this.em.count(User, { tenantId: this.scope.tenantId, status: { $ne: 'removed' }, email: { $ilike: email.replace(/[\\%_]/g, '\\$&') } })) > 0;
  }

  /** How many active or invited owners the tenant has. */
  countOwners(): Promise<number> {
    return this.em.count(User, { tenantId: this.scope.tenantId, role: 'owner', status: { $ne: 'removed' } });
  }

  /** The active or invited person with this e-mail (case-insensitively): whom a single sign-on names. */
  findSignableByEmail(email: string): Promise<User | null> {
    return this.em.findOne(User, { tenantId: this.scope.tenantId, status: { $in: ['active', 'invited'] }, email: { $ilike: email.replace(/[\\%_]/g, '\\$&') } });
  }

  /** Writes the changes made to the scope's people found through this repository. */
  save(): Promise<void> {
    return this.em.flush();
  }

  /** One window of the tenant's people who are not removed, by e-mail (then id). */
  page(window: ListWindow): Promise<ListSlice<User>> {
    return findSlice(this.em, User, { tenantId: this.scope.tenantId, status: { $ne: 'removed' } }, USER_KEYS, window);
  }

  /** The active person of a tenant with this e-mail, for signing in. */
  static findActiveByEmailUnscoped(em: EntityManager, tenantId: string, email: string): Promise<User | null> {
    const tenant = storedId(tenantId);
    return tenant ? em.findOne(User, { tenantId: tenant, status: 'active', email: { $ilike: email.replace(/[\\%_]/g, '\\$&') } }, { filters: false }) : Promise.resolve(null);
  }

  /** Records a TOTP step as used if it is later than the last one; false when it is not (a replayed code). Signing in comes before the tenant's request. */
  static async takeTotpStepUnscoped(em: EntityManager, userId: string, step: number): Promise<boolean> {
    const taken = await em.nativeUpdate(User, { id: userId, $or: [{ totpLastStep: null }, { totpLastStep: { $lt: String(step) } }] }, { totpLastStep: String(step) }, { filters: false });
    return taken === 1;
  }

  /** A person by id, of any tenant (an invitation or a session names them). */
  static findByIdUnscoped(em: EntityManager, id: string): Promise<User | null> {
    return em.findOne(User, { id }, { filters: false });
  }
}

/** The order of the people list: e-mail, id. */
export const USER_KEYS: SortKey<User>[] = [
  { field: 'email', direction: 'asc', kind: 'text', value: (row) => row.email },
  { field: 'id', direction: 'asc', kind: 'uuid', value: (row) => row.id },
];
