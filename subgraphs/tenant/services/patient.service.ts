import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import { NotFoundError } from '../../../schema/errors';
import { toConnection, type Connection } from '../../common/connection';
import { keyValues } from '../../common/keyset';
import { listWindow } from '../../common/list-window';
import { toPatientView } from '../directory-view';
import type { CreatePatientInput } from '../inputs/create-patient.input';
import { PatientRepository, patientKeys } from '../repositories/patient.repository';
import type { PatientListArgs, PatientType } from '../types/patient.type';
import { validatePatient } from './directory-rules';

/** The tenant's patients (PHI: nothing here logs a field; every read and change leaves an audit record, docs/audit.md). */
export class PatientService {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope, private readonly audit: RequestAudit) {}

  /** Validates and stores a new patient, with its audit record in the same transaction. */
  async create(input: CreatePatientInput): Promise<PatientType> {
    const fields = validatePatient(input);
    const patient = await this.em.transactional(async (tx) => {
      const created = await new PatientRepository(tx, this.scope).create({ ...fields });
      await this.audit.change(tx, 'patient.create', 'patient', [created.id]);
      return created;
    });
    return toPatientView(patient);
  }

  /** One patient; unknown and other tenants' ids are the same 404. */
  async get(id: string): Promise<PatientType> {
    const patient = await new PatientRepository(this.em, this.scope).findById(id);
    if (!patient) throw new NotFoundError('Patient not found');
    this.audit.read('patient', [patient.id]);
    return toPatientView(patient);
  }

  /** One window of the patients. */
  async list(args: PatientListArgs): Promise<Connection<PatientType>> {
    const keys = patientKeys(args.sortDirection);
    const slice = await new PatientRepository(this.em, this.scope).list(args, listWindow(args, keys));
    this.audit.read('patient', slice.rows.map((patient) => patient.id));
    return toConnection(slice, keyValues(keys), toPatientView);
  }
}
