import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { storedIds } from '../../../platform/ids';
import type { TenantScope } from '../../../platform/tenant-scope';
import { MerchantAccountLocation } from '../entities/merchant-account-location.entity';
import { MerchantAccount } from '../entities/merchant-account.entity';
import type { MerchantAccountView } from '../types/merchant-account.type';

/** The most merchant accounts a tenant may hold: `merchantAccounts` is a bounded list, not a connection (docs/api.md, "Pagination"). */
export const MAX_MERCHANT_ACCOUNTS = 100;

/** The GraphQL view of an account with the locations it serves (sorted). */
const toView = (account: MerchantAccount, locationIds: string[]): MerchantAccountView => ({
  id: account.processorAccountId,
  name: account.name,
  isDefault: account.isDefault,
  cardProcessingFee: account.cardProcessingFee,
  perTransactionFeeCents: account.perTransactionFeeCents,
  inPersonCardProcessingFee: account.inPersonCardProcessingFee,
  inPersonPerTransactionFeeCents: account.inPersonPerTransactionFeeCents,
  createdAt: account.createdAt,
  updatedAt: account.updatedAt,
  locationIds,
});

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

/** Merchant accounts and the locations they serve, through the ORM under the tenant guard. */
export class MerchantAccountRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /**
   * Serialises default changes of one tenant until the transaction ends. A transaction-scoped
   * advisory lock, which no ORM call takes: it reads no rows; the key names the tenant.
   */
  async lockTenant(): Promise<void> {
    await this.em.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0)) as locked`, [`billing.merchant_accounts:${this.scope.tenantId}`]);
  }

  /** Every account of the tenant, the default first, then by name. */
  async list(): Promise<MerchantAccountView[]> {
    const accounts = await this.em.find(
      MerchantAccount,
      { tenantId: this.scope.tenantId },
      { orderBy: { isDefault: 'desc', name: 'asc', createdAt: 'asc', id: 'asc' }, limit: MAX_MERCHANT_ACCOUNTS },
    );
    return this.withLocations(accounts);
  }

  /** How many accounts the tenant holds. */
  count(): Promise<number> {
    return this.em.count(MerchantAccount, { tenantId: this.scope.tenantId });
  }

  /** The account with this processor id, or null. */
  async findByProcessorId(processorAccountId: string): Promise<MerchantAccountView | null> {
    const account = await this.em.findOne(MerchantAccount, { tenantId: this.scope.tenantId, processorAccountId });
    return account ? (await this.withLocations([account]))[0] : null;
  }

  /**
   * True when another tenant registered this processor id: the one read across tenants, so the
   * guard is off for it; it answers yes or no, nothing of theirs.
   */
  static async heldByAnotherTenantUnscoped(em: EntityManager, scope: TenantScope, processorAccountId: string): Promise<boolean> {
    return (await em.count(MerchantAccount, { processorAccountId, tenantId: { $ne: scope.tenantId } }, { filters: false })) > 0;
  }

  /** The accounts serving each of these locations (default first, then by name); ids that cannot exist are served by none. */
  async ofLocations(locationIds: string[]): Promise<Map<string, MerchantAccountView[]>> {
    const byLocation = new Map<string, MerchantAccountView[]>();
    const wanted = storedIds(locationIds);
    if (!wanted.length) return byLocation;
    const served = await this.em.find(MerchantAccountLocation, { tenantId: this.scope.tenantId, locationId: { $in: wanted } });
    if (!served.length) return byLocation;
    const accounts = await this.em.find(
      MerchantAccount,
      { tenantId: this.scope.tenantId, id: { $in: [...new Set(served.map((link) => link.merchantAccountId))] } },
      { orderBy: { isDefault: 'desc', name: 'asc', id: 'asc' } },
    );
    const views = await this.withLocations(accounts);
    for (const view of views) {
      for (const locationId of view.locationIds) if (wanted.includes(locationId)) byLocation.set(locationId, [...(byLocation.get(locationId) ?? []), view]);
    }
    return byLocation;
  }

  /** True when the tenant has a default account. */
  async hasDefault(): Promise<boolean> {
    return (await this.em.count(MerchantAccount, { tenantId: this.scope.tenantId, isDefault: true })) > 0;
  }

  /** Clears the tenant's default (inside the transaction that sets the next one). */
  async clearDefault(): Promise<void> {
    for (const account of await this.em.find(MerchantAccount, { tenantId: this.scope.tenantId, isDefault: true })) account.isDefault = false;
    await this.em.flush();
  }

  /** Makes this account the default; false when the tenant has no such account. */
  async makeDefault(processorAccountId: string): Promise<boolean> {
    const account = await this.em.findOne(MerchantAccount, { tenantId: this.scope.tenantId, processorAccountId });
    if (!account) return false;
    account.isDefault = true;
    await this.em.flush();
    return true;
  }

  /**
   * Inserts the account, then its locations; false when the processor id is already registered
   * (by any tenant: a race past the caller's checks), which leaves the caller's transaction
   * failed: the caller answers 409 and rolls it back.
   */
  async insert(account: NewMerchantAccount): Promise<boolean> {
    const { locationIds, perTransactionFee, inPersonPerTransactionFee, ...fields } = account;
    const tenantId = this.scope.tenantId;
    this.em.create(MerchantAccount, { ...fields, tenantId, perTransactionFeeCents: perTransactionFee, inPersonPerTransactionFeeCents: inPersonPerTransactionFee } as never);
    try {
      await this.em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return false;
      throw error;
    }
    // A flush of its own: the link rows reference the account, and the unit of work knows no relation to order them by.
    for (const locationId of locationIds) this.em.create(MerchantAccountLocation, { merchantAccountId: account.id, locationId, tenantId });
    await this.em.flush();
    return true;
  }

  /** The views of these accounts, with the locations each serves (one query for all). */
  private async withLocations(accounts: MerchantAccount[]): Promise<MerchantAccountView[]> {
    const links = accounts.length
      ? await this.em.find(MerchantAccountLocation, { tenantId: this.scope.tenantId, merchantAccountId: { $in: accounts.map((a) => a.id) } }, { orderBy: { locationId: 'asc' } })
      : [];
    return accounts.map((account) => toView(account, links.filter((link) => link.merchantAccountId === account.id).map((link) => link.locationId)));
  }
}
