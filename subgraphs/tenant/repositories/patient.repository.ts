import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { storedId, storedIds } from '../../../platform/ids';
import type { TenantScope } from '../../../platform/tenant-scope';
import { Patient } from '../entities/patient.entity';
import type { PatientListArgs } from '../types/patient.type';
import { searchCondition } from './search';

/** Queries of the patients table. */
export class PatientRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** Stores a new patient of the scope's tenant (its tenantId is the scope's, whatever `fields` hold). */
  async create(fields: Record<string, unknown>): Promise<Patient> {
    const row = this.add(fields);
    await this.em.persistAndFlush(row);
    return row;
  }

  /** A new patient of the scope's tenant, added to the unit of work: the caller's transaction writes it. */
  add(fields: Record<string, unknown>): Patient {
    return this.em.create(Patient, { ...fields, tenantId: this.scope.tenantId } as never);
  }

  /** The patient, or null for unknown ids of any shape and for other tenants' ids alike. */
  findById(id: string): Promise<Patient | null> {
    const key = storedId(id);
    return key ? this.em.findOne(Patient, { id: key, tenantId: this.scope.tenantId }) : Promise.resolve(null);
  }

  /** Those of the ids that are the tenant's patients. */
  findByIds(ids: string[]): Promise<Patient[]> {
    const valid = storedIds(ids);
    return valid.length ? this.em.find(Patient, { id: { $in: valid }, tenantId: this.scope.tenantId }) : Promise.resolve([]);
  }

  /** One page, by last then first name in the requested direction. */
  list(args: PatientListArgs): Promise<[Patient[], number]> {
    const where = searchCondition(args.search, ['firstName', 'lastName', 'email']) ?? {};
    const direction = args.sortDirection;
    return this.em.findAndCount(Patient, { ...where, tenantId: this.scope.tenantId } as FilterQuery<Patient>, {
      orderBy: { lastName: direction, firstName: direction, id: direction },
      limit: args.perPage,
      offset: (args.page - 1) * args.perPage,
    });
  }
}
