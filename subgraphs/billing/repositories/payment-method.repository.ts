import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import { PaymentMethod } from '../entities/payment-method.entity';
import type { PaymentMethodView } from '../types/payment-method.type';

/** A payment method row as reads return it: the GraphQL view's fields. */
export type PaymentMethodRow = PaymentMethodView;

const COLUMNS = `id, patient_id as "patientId", processor_payment_method_id as "processorPaymentMethodId",
  payment_method_config_id as "paymentMethodConfigId", fingerprint, brand, last4, exp_month as "expMonth", exp_year as "expYear",
  account_holder_type as "accountHolderType", account_number_last4 as "accountNumberLast4", bank_name as "bankName",
  routing_number as "routingNumber", wallet_type as "walletType", description, type, is_default as "isDefault",
  is_archived as "isArchived", billing_contact as "billingContact", metadata, created_at as "createdDate", updated_at as "updatedDate"`;

/** The driver hands timestamptz back as text; views carry Dates. */
function toRow(raw: Record<string, any>): PaymentMethodRow {
  return { ...raw, createdDate: new Date(raw.createdDate), updatedDate: new Date(raw.updatedDate) } as PaymentMethodRow;
}

/**
 * Reads of payment methods: one SQL statement each, binding the tenant id itself (the ORM's
 * filter does not reach raw SQL). Inside a transaction they run on its connection.
 */
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

  private run(sql: string, params: unknown[]): Promise<Record<string, any>[]> {
    return this.em.getConnection().execute<Record<string, any>[]>(sql, params, 'all', this.em.getTransactionContext());
  }

  /**
   * Serialises writes for one patient until the transaction ends: the duplicate check and the
   * "first method is the default" rule then see every earlier write.
   */
  async lockPatient(patientId: string): Promise<void> {
    await this.run(`select pg_advisory_xact_lock(hashtextextended(?, 0)) as locked`, [`billing.payment_methods:${this.scope.tenantId}:${patientId}`]);
  }

  /** An existing method that is the same as a new one: same processor token (any patient), or same fingerprint for this patient. */
  async findDuplicate(patientId: string, processorPaymentMethodId: string, fingerprint: string | null): Promise<PaymentMethodRow | null> {
    const rows = await this.run(
      `select ${COLUMNS} from billing.payment_methods
       where tenant_id = ? and (processor_payment_method_id = ? or (patient_id = ? and fingerprint = ? and not is_archived))
       order by (patient_id = ?) desc, created_at limit 1`,
      [this.scope.tenantId, processorPaymentMethodId, patientId, fingerprint, patientId],
    );
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** True when another tenant registered this processor token (the one read across tenants; it answers nothing of theirs). */
  async heldByAnotherTenant(processorPaymentMethodId: string): Promise<boolean> {
    const rows = await this.run(`select 1 from billing.payment_methods where processor_payment_method_id = ? and tenant_id <> ? limit 1`, [processorPaymentMethodId, this.scope.tenantId]);
    return rows.length > 0;
  }

  /** True when this method's token was registered by another tenant first (found by the migration that made tokens one tenant's). */
  async isDisputed(id: string): Promise<boolean> {
    return (await this.run(`select 1 from billing.payment_methods where tenant_id = ? and id = ? and processor_id_disputed`, [this.scope.tenantId, id])).length > 0;
  }

  /** True when the patient already has a default (not archived) method. */
  async hasDefault(patientId: string): Promise<boolean> {
    const rows = await this.run(`select 1 from billing.payment_methods where tenant_id = ? and patient_id = ? and is_default and not is_archived`, [this.scope.tenantId, patientId]);
    return rows.length > 0;
  }

  /** The tenant's method with this id (callers pass UUIDs only), or null. */
  async findById(id: string): Promise<PaymentMethodRow | null> {
    const rows = await this.run(`select ${COLUMNS} from billing.payment_methods where tenant_id = ? and id = ?`, [this.scope.tenantId, id]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** Every method of these patients in one statement, default first, then oldest first. */
  async ofPatients(patientIds: string[], includeArchived: boolean): Promise<PaymentMethodRow[]> {
    if (!patientIds.length) return [];
    const rows = await this.run(
      `select ${COLUMNS} from billing.payment_methods
       where tenant_id = ? and patient_id in (?) ${includeArchived ? '' : 'and not is_archived'}
       order by patient_id, is_default desc, created_at, id`,
      [this.scope.tenantId, patientIds],
    );
    return rows.map(toRow);
  }
}
