import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { isUuid } from '../../shared/ids';
import { Patient } from '../entities/patient.entity';
import type { PatientListArgs } from '../types/patient.type';
import { searchCondition } from './search';

/** Queries of the patients table. */
export class PatientRepository {
  constructor(private readonly em: EntityManager) {}

  /** The patient, or null for unknown ids of any shape and for other tenants' ids alike. */
  findById(id: string): Promise<Patient | null> {
    return isUuid(id) ? this.em.findOne(Patient, { id }) : Promise.resolve(null);
  }

  /** Those of the ids that are the tenant's patients. */
  findByIds(ids: string[]): Promise<Patient[]> {
    const valid = ids.filter(isUuid);
    return valid.length ? this.em.find(Patient, { id: { $in: valid } }) : Promise.resolve([]);
  }

  /** One page, by last then first name in the requested direction. */
  list(args: PatientListArgs): Promise<[Patient[], number]> {
    const where = searchCondition(args.search, ['firstName', 'lastName', 'email']) ?? {};
    const direction = args.sortDirection;
    return this.em.findAndCount(Patient, where as FilterQuery<Patient>, {
      orderBy: { lastName: direction, firstName: direction, id: direction },
      limit: args.perPage,
      offset: (args.page - 1) * args.perPage,
    });
  }
}
