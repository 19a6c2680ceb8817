import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { storedId, storedIds } from '../../../platform/ids';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { SortDirection } from '../../common/pagination';
import type { ListSlice } from '../../common/connection';
import { findSlice } from '../../common/keyset';
import type { ListWindow, SortKey } from '../../common/list-window';
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

  /** One window, by last then first name (then id) in the requested direction. */
  list(args: PatientListArgs, window: ListWindow): Promise<ListSlice<Patient>> {
    const where = searchCondition(args.search, ['firstName', 'lastName', 'email']) ?? {};
    return findSlice(this.em, Patient, { ...where, tenantId: this.scope.tenantId } as FilterQuery<Patient>, patientKeys(args.sortDirection), window);
  }
}

/** The order of the patient list: last name, first name, id, all one way. */
export function patientKeys(direction: SortDirection): SortKey<Patient>[] {
  return [
    { field: 'lastName', direction, kind: 'text', value: (row) => row.lastName },
    { field: 'firstName', direction, kind: 'text', value: (row) => row.firstName },
    { field: 'id', direction, kind: 'uuid', value: (row) => row.id },
  ];
}
