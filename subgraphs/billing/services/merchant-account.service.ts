import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import { ConflictError, NotFoundError } from '../../../schema/errors';
import { Issues, type IssueLoc } from '../../common/field-rules';
import type { CreateMerchantAccountInput } from '../inputs/merchant-account.input';
import { withProcessor, type OpenAccountRequest, type PaymentProcessor } from '../processor/payment-processor';
import { DirectoryRepository } from '../repositories/directory.repository';
import { MAX_MERCHANT_ACCOUNTS, MerchantAccountRepository } from '../repositories/merchant-account.repository';
import type { MerchantAccountView } from '../types/merchant-account.type';
import { cents, MAX_REFERENCE, requiredText, unknownReference } from './rules';

// One answer for a processor id registered by this tenant or by another, so a refusal tells nobody whose it is.
const ALREADY_REGISTERED = 'A merchant account with this processorAccountId already exists';

/** A fee in percent: 0 to 100 with at most 4 decimals (the column is numeric(7, 4)). */
function percent(issues: Issues, loc: IssueLoc, value: number): number {
  if (value < 0 || value > 100 || Math.abs(Math.round(value * 10_000) - value * 10_000) > 1e-6) {
    issues.value(loc, `${loc[loc.length - 1]} must be a percentage from 0 to 100 with at most 4 decimals`, value);
  }
  return value;
}

/** Merchant accounts (contract part 4.8): all of the tenant's, creation, and the one default. */
export class MerchantAccountService {
  /** `audit`: the request's side of the audit trail (ctx.audit), which every change writes to. */
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope, private readonly processor: PaymentProcessor, private readonly audit: RequestAudit) {}

  /** Every account of the tenant (one statement, locations included). */
  list(): Promise<MerchantAccountView[]> {
    return new MerchantAccountRepository(this.em, this.scope).list();
  }

  /** The accounts serving each location (the batch behind `Location.merchantAccounts`). */
  ofLocations(locationIds: string[]): Promise<Map<string, MerchantAccountView[]>> {
    return new MerchantAccountRepository(this.em, this.scope).ofLocations(locationIds);
  }

  /**
   * Registers an account (opened at the processor when no id is given). The tenant's first
   * account becomes the default; a new default replaces the old one in the same transaction.
   * With an idempotency key the processor answers the account it opened under that key, so a
   * retry whose first answer was lost registers that account, and a retry after success answers
   * the registered one unchanged (and records nothing). A processor id is one tenant's alone: another
   * tenant's is a 409. The account and its audit record commit together.
   */
  async create(input: CreateMerchantAccountInput): Promise<MerchantAccountView> {
    const issues = new Issues();
    const loc = (...path: (string | number)[]) => ['input', ...path];
    // The list is bounded, so the accounts are: a 101st would never be listed.
    if ((await new MerchantAccountRepository(this.em, this.scope).count()) >= MAX_MERCHANT_ACCOUNTS) throw new ConflictError(`A tenant holds at most ${MAX_MERCHANT_ACCOUNTS} merchant accounts`);
    const known = await new DirectoryRepository(this.em, this.scope).locations(input.locationIds);
    const processorAccountId = input.processorAccountId == null ? null : requiredText(issues, loc('processorAccountId'), input.processorAccountId, MAX_REFERENCE);
    const name = requiredText(issues, loc('name'), input.name);
    const key = input.idempotencyKey == null ? null : requiredText(issues, loc('idempotencyKey'), input.idempotencyKey, MAX_REFERENCE);
    const fees = {
      cardProcessingFee: percent(issues, loc('cardProcessingFee'), input.cardProcessingFee),
      perTransactionFee: cents(issues, loc('perTransactionFeeCents'), input.perTransactionFeeCents, 0, 100_000),
      inPersonCardProcessingFee: percent(issues, loc('inPersonCardProcessingFee'), input.inPersonCardProcessingFee),
      inPersonPerTransactionFee: cents(issues, loc('inPersonPerTransactionFeeCents'), input.inPersonPerTransactionFeeCents, 0, 100_000),
    };
    input.locationIds.forEach((id, i) => {
      if (!known.has(id.toLowerCase())) unknownReference(issues, loc('locationIds', i), 'location', id);
    });
    issues.throwIfAny();
    // Keys are the caller's, so they are scoped to the tenant before they reach the processor.
    const opening: OpenAccountRequest = { name, idempotencyKey: key === null ? null : `${this.scope.tenantId}:${key}` };
    const accountId = processorAccountId ?? (await withProcessor(this.processor, (processor) => processor.createMerchantAccount(opening))).accountId;
    const openedByKey = processorAccountId === null && key !== null;
    const locationIds = [...new Set(input.locationIds.map((id) => id.toLowerCase()))];
    await this.em.transactional(async (tx) => {
      const accounts = new MerchantAccountRepository(tx, this.scope);
      await accounts.lockTenant();
      // A retried keyed opening: the processor answered the account it opened before, registered by then.
      if (openedByKey && (await accounts.findByProcessorId(accountId))) return;
      // Another tenant's account is refused exactly like one of ours registered twice: nothing says whose it is.
      if (await MerchantAccountRepository.heldByAnotherTenantUnscoped(tx, this.scope, accountId)) throw new ConflictError(ALREADY_REGISTERED);
      const isDefault = input.isDefault || !(await accounts.hasDefault());
      if (isDefault) await accounts.clearDefault();
      const inserted = await accounts.insert({ id: randomUUID(), processorAccountId: accountId, name, isDefault, ...fees, locationIds });
      if (!inserted) throw new ConflictError(ALREADY_REGISTERED);
      // Accounts are known by their processor id (the API's id), so the record names that.
      await this.audit.change(tx, 'merchant_account.create', 'merchant_account', [accountId]);
    });
    return (await new MerchantAccountRepository(this.em, this.scope).findByProcessorId(accountId))!;
  }

  /** Makes the account the tenant's default, unsetting the old one in the same transaction. */
  async setDefault(processorAccountId: string): Promise<MerchantAccountView> {
    await this.em.transactional(async (tx) => {
      const accounts = new MerchantAccountRepository(tx, this.scope);
      await accounts.lockTenant();
      if (!(await accounts.findByProcessorId(processorAccountId))) throw new NotFoundError('Merchant account not found');
      await accounts.clearDefault();
      await accounts.makeDefault(processorAccountId);
      await this.audit.change(tx, 'merchant_account.set_default', 'merchant_account', [processorAccountId]);
    });
    return (await new MerchantAccountRepository(this.em, this.scope).findByProcessorId(processorAccountId))!;
  }
}
