import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import { ConflictError, NotFoundError } from '../../../schema/errors';
import { recordEvent } from '../../common/jobs/record-event';
import type { CreatePaymentMethodInput } from '../inputs/payment-method.input';
import { DirectoryRepository } from '../repositories/directory.repository';
import { paymentMethodView, PaymentMethodRepository } from '../repositories/payment-method.repository';
import type { PaymentMethodView } from '../types/payment-method.type';
import { validatePaymentMethod, type PaymentMethodData } from './payment-method-rules';

// One answer for a token of another patient, of this tenant or another, so the refusal tells nobody whose it is.
const ANOTHER_PATIENTS = 'This paymentMethodId belongs to another patient';

/** Patients' payment methods (contract part 4.4): create, and list per patient; PHI, so every read and change leaves an audit record (docs/audit.md). */
export class PaymentMethodService {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope, private readonly audit: RequestAudit) {}

  /**
   * Adds a tokenised method to a patient. The body is checked first (422, as FastAPI validates
   * before the handler runs); then an unknown or foreign patient is a 404. The same fingerprint
   * (or processor token) for the same patient answers the existing record; the patient's first
   * method becomes the default. A token is one tenant's: another tenant's is a 409 like another
   * patient's. The record, its `payment_method.created` event and its audit record commit together
   * (an existing record answered again is no change: its record is a read).
   */
  async create(patientId: string, input: CreatePaymentMethodInput): Promise<PaymentMethodView> {
    const data = validatePaymentMethod(input);
    const patient = patientId.toLowerCase();
    try {
      return await this.insert(patient, data);
    } catch (error) {
      // Only a write racing past the per-patient lock lands here (the same token for two patients or tenants at once): the retry sees it.
      if (error instanceof UniqueConstraintViolationException) return this.insert(patient, data);
      throw error;
    }
  }

  private insert(patientId: string, data: PaymentMethodData): Promise<PaymentMethodView> {
    return this.em.transactional(async (tx) => {
      const found = await new DirectoryRepository(tx, this.scope).patients([patientId]);
      if (!found.has(patientId)) throw new NotFoundError('Patient not found');
      const methods = new PaymentMethodRepository(tx, this.scope);
      await methods.lockPatient(patientId);
      const duplicate = await methods.findDuplicate(patientId, data.processorPaymentMethodId, data.fingerprint);
      if (duplicate) {
        if (duplicate.patientId !== patientId) throw new ConflictError(ANOTHER_PATIENTS);
        // Answered as stored (its billing contact and metadata may not be what was sent): a read, not a change.
        this.audit.read('payment_method', [duplicate.id]);
        return duplicate;
      }
      // A token is bound to the tenant it was first registered by; the refusal is the same as for another patient's, naming nobody.
      if (await PaymentMethodRepository.heldByAnotherTenantUnscoped(tx, this.scope, data.processorPaymentMethodId)) throw new ConflictError(ANOTHER_PATIENTS);
      const isDefault = !(await methods.hasDefault(patientId));
      const method = methods.add({ ...data, patientId, isDefault });
      // Ids and display details only: the event goes to the tenant's webhook, which needs no personal data.
      await recordEvent(tx, this.scope, 'payment_method.created', {
        paymentMethodId: method.id,
        patientId,
        type: method.type,
        brand: method.brand,
        last4: method.last4,
        isDefault,
      });
      await methods.save();
      await this.audit.change(tx, 'payment_method.create', 'payment_method', [method.id]);
      return paymentMethodView(method);
    });
  }

  /** The methods of these patients, grouped by patient id (the batch behind `Patient.paymentMethods`): one audited read of those found. */
  async ofPatients(patientIds: string[], includeArchived: boolean): Promise<Map<string, PaymentMethodView[]>> {
    const rows = await new PaymentMethodRepository(this.em, this.scope).ofPatients(patientIds, includeArchived);
    this.audit.read('payment_method', rows.map((row) => row.id));
    const byPatient = new Map<string, PaymentMethodView[]>();
    for (const row of rows) byPatient.set(row.patientId, [...(byPatient.get(row.patientId) ?? []), row]);
    return byPatient;
  }
}
