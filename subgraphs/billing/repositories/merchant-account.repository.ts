import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { MerchantAccountView } from '../types/merchant-account.type';

// Fees as numbers (numeric would come back as text); location ids ride along as a sorted text array.
const COLUMNS = `m.processor_account_id as id, m.name, m.is_default as "isDefault",
  m.card_processing_fee::float8 as "cardProcessingFee", m.per_transaction_fee_cents as "perTransactionFee",
  m.in_person_card_processing_fee::float8 as "inPersonCardProcessingFee", m.in_person_per_transaction_fee_cents as "inPersonPerTransactionFee",
  m.created_at as "createdDate", m.updated_at as "updatedDate",
  array(select l.location_id::text from billing.merchant_account_locations l where l.merchant_account_id = m.id and l.tenant_id = m.tenant_id order by l.location_id) as "locationIds"`;

/** The driver hands timestamptz back as text; views carry Dates. */
const toView = (row: Record<string, any>): MerchantAccountView => ({ ...row, createdDate: new Date(row.createdDate), updatedDate: new Date(row.updatedDate) }) as MerchantAccountView;

/** The columns of a new account. */
export interface NewMerchantAccount {
  id: string;
  processorAccountId: string;
  name: string;
  isDefault: boolean;
  cardProcessingFee: number;
  perTransactionFee: number;
  inPersonCardProcessingFee: number;
  inPersonPerTransactionFee: number;
  locationIds: string[];
}

/** Merchant account SQL: every read one statement (locations included), binding the tenant id itself. */
export class MerchantAccountRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  private run(sql: string, params: unknown[]): Promise<Record<string, any>[]> {
    return this.em.getConnection().execute<Record<string, any>[]>(sql, params, 'all', this.em.getTransactionContext());
  }

  /** Serialises default changes of one tenant until the transaction ends. */
  async lockTenant(): Promise<void> {
    await this.run(`select pg_advisory_xact_lock(hashtextextended(?, 0)) as locked`, [`billing.merchant_accounts:${this.scope.tenantId}`]);
  }

  /** Every account of the tenant, the default first, then by name. */
  async list(): Promise<MerchantAccountView[]> {
    const rows = await this.run(`select ${COLUMNS} from billing.merchant_accounts m where m.tenant_id = ? order by m.is_default desc, m.name, m.created_at, m.id`, [this.scope.tenantId]);
    return rows.map(toView);
  }

  /** The account with this processor id, or null. */
  async findByProcessorId(processorAccountId: string): Promise<MerchantAccountView | null> {
    const rows = await this.run(`select ${COLUMNS} from billing.merchant_accounts m where m.tenant_id = ? and m.processor_account_id = ?`, [this.scope.tenantId, processorAccountId]);
    return rows[0] ? toView(rows[0]) : null;
  }

  /** True when another tenant registered this processor id (the one read across tenants; it answers nothing of theirs). */
  async heldByAnotherTenant(processorAccountId: string): Promise<boolean> {
    return (await this.run(`select 1 from billing.merchant_accounts where processor_account_id = ? and tenant_id <> ? limit 1`, [processorAccountId, this.scope.tenantId])).length > 0;
  }

  /** The accounts serving each of these locations, in one statement. */
  async ofLocations(locationIds: string[]): Promise<Map<string, MerchantAccountView[]>> {
    const byLocation = new Map<string, MerchantAccountView[]>();
    if (!locationIds.length) return byLocation;
    const rows = await this.run(
      `select ${COLUMNS}, ml.location_id::text as "servedLocation" from billing.merchant_account_locations ml
       join billing.merchant_accounts m on m.id = ml.merchant_account_id and m.tenant_id = ml.tenant_id
       where ml.tenant_id = ? and ml.location_id in (?) order by m.is_default desc, m.name, m.id`,
      [this.scope.tenantId, locationIds],
    );
    for (const { servedLocation, ...row } of rows) byLocation.set(servedLocation, [...(byLocation.get(servedLocation) ?? []), toView(row)]);
    return byLocation;
  }

  /** True when the tenant has a default account. */
  async hasDefault(): Promise<boolean> {
    return (await this.run(`select 1 from billing.merchant_accounts where tenant_id = ? and is_default`, [this.scope.tenantId])).length > 0;
  }

  /** Clears the tenant's default (inside the transaction that sets the next one). */
  async clearDefault(): Promise<void> {
    await this.run(`update billing.merchant_accounts set is_default = false, updated_at = now() where tenant_id = ? and is_default`, [this.scope.tenantId]);
  }

  /** Makes this account the default; false when the tenant has no such account. */
  async makeDefault(processorAccountId: string): Promise<boolean> {
    const rows = await this.run(
      `update billing.merchant_accounts set is_default = true, updated_at = now() where tenant_id = ? and processor_account_id = ? returning id`,
      [this.scope.tenantId, processorAccountId],
    );
    return rows.length > 0;
  }

  /** Inserts the account and its locations; false when the processor id is already registered (by any tenant: a race past the checks). */
  async insert(account: NewMerchantAccount): Promise<boolean> {
    const rows = await this.run(
      `insert into billing.merchant_accounts (id, tenant_id, processor_account_id, name, is_default, card_processing_fee,
         per_transaction_fee_cents, in_person_card_processing_fee, in_person_per_transaction_fee_cents)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing returning id`,
      [account.id, this.scope.tenantId, account.processorAccountId, account.name, account.isDefault, account.cardProcessingFee,
        account.perTransactionFee, account.inPersonCardProcessingFee, account.inPersonPerTransactionFee],
    );
    if (!rows.length) return false;
    if (account.locationIds.length) {
      await this.run(
        `insert into billing.merchant_account_locations (merchant_account_id, location_id, tenant_id) values ${account.locationIds.map(() => '(?, ?, ?)').join(', ')}`,
        account.locationIds.flatMap((locationId) => [account.id, locationId, this.scope.tenantId]),
      );
    }
    return true;
  }
}
