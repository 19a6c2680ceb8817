import type { EntityManager } from '@mikro-orm/postgresql';
import { storedId, storedIds } from '../../../platform/ids';
import type { TenantScope } from '../../../platform/tenant-scope';
import { PaymentMethod } from '../entities/payment-method.entity';
import { PaymentMethodType, type AccountHolderType, type WalletType } from '../types/enums';
import type { PaymentMethodView } from '../types/payment-method.type';

/** A payment method row as reads return it: the GraphQL view's fields. */
export type PaymentMethodRow = PaymentMethodView;

/** The GraphQL view of a stored (or freshly added) method. */
export function paymentMethodView(method: PaymentMethod): PaymentMethodView {
  return {
    id: method.id,
    patientId: method.patientId,
    processorPaymentMethodId: method.processorPaymentMethodId,
    paymentMethodConfigId: method.paymentMethodConfigId,
    fingerprint: method.fingerprint,
    brand: method.brand,
    last4: method.last4,
    expMonth: method.expMonth,
    expYear: method.expYear,
    // Stored as the service's rules wrote them: the enums' lower-case values.
    accountHolderType: method.accountHolderType as AccountHolderType | null,
    accountNumberLast4: method.accountNumberLast4,
    bankName: method.bankName,
    routingNumber: method.routingNumber,
    walletType: method.walletType as WalletType | null,
    description: method.description,
    type: PaymentMethodType[method.type],
    isDefault: method.isDefault,
    isArchived: method.isArchived,
    billingContact: method.billingContact as PaymentMethodView['billingContact'],
    metadata: method.metadata,
    createdDate: method.createdAt,
    updatedDate: method.updatedAt,
  };
}

/** Patients' payment methods, through the ORM under the tenant guard; inside a transaction on its connection. */
export class PaymentMethodRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** A new method of the scope's tenant, added to the unit of work: the caller's transaction (or `create`) writes it. */
  add(fields: Record<string, unknown>): PaymentMethod {
    return this.em.create(PaymentMethod, { ...fields, tenantId: this.scope.tenantId } as never);
  }

  /** Writes what `add` added, in the caller's transaction. */
  async save(): Promise<void> {
    await this.em.flush();
  }

  /**
   * Serialises writes for one patient until the transaction ends: the duplicate check and the
   * "first method is the default" rule then see every earlier write. A transaction-scoped advisory
   * lock, which no ORM call takes: it reads no rows, so there is no tenant condition to guard; the
   * key names the tenant.
   */
  async lockPatient(patientId: string): Promise<void> {
    await this.em.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0)) as locked`, [`billing.payment_methods:${this.scope.tenantId}:${patientId}`]);
  }

  /** An existing method that is the same as a new one: same processor token (any patient), or same fingerprint for this patient; this patient's first. */
  async findDuplicate(patientId: string, processorPaymentMethodId: string, fingerprint: string | null): Promise<PaymentMethodRow | null> {
    const samePatient = fingerprint === null ? [] : [{ patientId, fingerprint, isArchived: false }];
    const found = await this.em.find(
      PaymentMethod,
      { tenantId: this.scope.tenantId, $or: [{ processorPaymentMethodId }, ...samePatient] },
      { orderBy: { createdAt: 'asc', id: 'asc' } },
    );
    const duplicate = found.find((method) => method.patientId === patientId) ?? found[0];
    return duplicate ? paymentMethodView(duplicate) : null;
  }

  /**
   * True when another tenant registered this processor token: the one read across tenants, so the
   * guard is off for it; it answers yes or no, nothing of theirs.
   */
  static async heldByAnotherTenantUnscoped(em: EntityManager, scope: TenantScope, processorPaymentMethodId: string): Promise<boolean> {
    return (await em.count(PaymentMethod, { processorPaymentMethodId, tenantId: { $ne: scope.tenantId } }, { filters: false })) > 0;
  }

  /** True when this method's token was registered by another tenant first (found by the migration that made tokens one tenant's). */
  async isDisputed(id: string): Promise<boolean> {
    return (await this.em.count(PaymentMethod, { tenantId: this.scope.tenantId, id, processorIdDisputed: true })) > 0;
  }

  /** True when the patient already has a default (not archived) method. */
  async hasDefault(patientId: string): Promise<boolean> {
    return (await this.em.count(PaymentMethod, { tenantId: this.scope.tenantId, patientId, isDefault: true, isArchived: false })) > 0;
  }

  /** The tenant's method with this id, or null (unknown, malformed and other tenants' ids alike). */
  async findById(id: string): Promise<PaymentMethodRow | null> {
    const key = storedId(id);
    const method = key ? await this.em.findOne(PaymentMethod, { id: key, tenantId: this.scope.tenantId }) : null;
    return method ? paymentMethodView(method) : null;
  }

  /** Every method of these patients in one query, by patient, default first, then oldest first. Ids that cannot exist have none. */
  async ofPatients(patientIds: string[], includeArchived: boolean): Promise<PaymentMethodRow[]> {
    const wanted = storedIds(patientIds);
    if (!wanted.length) return [];
    const methods = await this.em.find(
      PaymentMethod,
      { tenantId: this.scope.tenantId, patientId: { $in: wanted }, ...(includeArchived ? {} : { isArchived: false }) },
      { orderBy: { patientId: 'asc', isDefault: 'desc', createdAt: 'asc', id: 'asc' } },
    );
    return methods.map(paymentMethodView);
  }
}
