import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import { NotFoundError } from '../../../schema/errors';
import { toPage, type Page } from '../../common/pagination';
import { validatePage } from '../../common/validate-page';
import { toPatientView } from '../directory-view';
import type { CreatePatientInput } from '../inputs/create-patient.input';
import { PatientRepository } from '../repositories/patient.repository';
import type { PatientListArgs, PatientType } from '../types/patient.type';
import { validatePatient } from './directory-rules';

/** The tenant's patients (PHI: nothing here logs a field). */
export class PatientService {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** Validates and stores a new patient. */
  async create(input: CreatePatientInput): Promise<PatientType> {
    const patient = await new PatientRepository(this.em, this.scope).create({ ...validatePatient(input) });
    return toPatientView(patient);
  }

  /** One patient; unknown and other tenants' ids are the same 404. */
  async get(id: string): Promise<PatientType> {
    const patient = await new PatientRepository(this.em, this.scope).findById(id);
    if (!patient) throw new NotFoundError('Patient not found');
    return toPatientView(patient);
  }

  /** One page of patients. */
  async list(args: PatientListArgs): Promise<Page<PatientType>> {
    validatePage(args);
    const [items, total] = await new PatientRepository(this.em, this.scope).list(args);
    return toPage(items.map(toPatientView), total, args);
  }
}
