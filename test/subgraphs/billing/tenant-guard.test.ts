import type { EntityManager } from '@mikro-orm/postgresql';
import { TenantScope } from '../../../platform/tenant-scope';
import { NotFoundError } from '../../../schema/errors';
import { DirectoryRepository } from '../../../subgraphs/billing/repositories/directory.repository';
import { GIFT_CARD_KEYS, GiftCardRepository } from '../../../subgraphs/billing/repositories/gift-card.repository';
import { listWindow } from '../../../subgraphs/common/list-window';
import { MemberRepository } from '../../../subgraphs/billing/repositories/member.repository';
import { MerchantAccountRepository } from '../../../subgraphs/billing/repositories/merchant-account.repository';
import { PaymentMethodRepository } from '../../../subgraphs/billing/repositories/payment-method.repository';
import { GiftCardService } from '../../../subgraphs/billing/services/gift-card.service';
import { MemberService } from '../../../subgraphs/billing/services/member.service';
import { startBillingKit, type BillingKit } from './billing-kit';
import { RequestAudit } from '../../../platform/audit/request-audit';

/** The services' audit trail, off: these tests are about the tenant guard (test/platform/audit covers the records). */
const NO_AUDIT = new RequestAudit(null, null);

const CARD = 'mutation($i: IssueGiftCardInput!) { issueGiftCard(input: $i) { id } }';
const PM = 'mutation($p: ID!, $i: CreatePaymentMethodInput!) { createPatientPaymentMethod(patientId: $p, input: $i) { id } }';
const MEMBER = 'mutation($i: CreateMemberInput!) { createMember(input: $i) { id } }';
const ACCOUNT = 'mutation($i: CreateMerchantAccountInput!) { createMerchantAccount(input: $i) { id } }';

/**
 * The tenant guard covers billing (docs/decisions.md, One data-access style): its repositories
 * read through the ORM, whose `tenant` filter limits every query to the tenant its entity manager
 * is guarded for. Here the repositories are handed B's own scope, so the explicit
 * `tenantId: scope.tenantId` in their queries would find B's rows; only the guard (A's) stands in
 * the way, and B's rows read as unknown: null, empty, NOT_FOUND.
 */
describe('billing under the tenant guard (real PostgreSQL)', () => {
  let kit: BillingKit;
  let a: string;
  let b: string;
  const rowsOfB = { card: '', member: '', method: '', patient: '', location: '', account: '' };

  beforeAll(async () => {
    kit = await startBillingKit();
    [a, b] = await Promise.all([kit.tenant('Guard A'), kit.tenant('Guard B')]);
    const ok = (result: { data?: any; errors?: unknown }, field: string): string => {
      if (result.errors) throw new Error(JSON.stringify(result.errors));
      return result.data[field].id;
    };
    rowsOfB.patient = await kit.patient(b);
    rowsOfB.location = await kit.location(b);
    rowsOfB.card = ok(await kit.run(b, CARD, { i: { initialValueCents: 5000, suppressRecipientNotification: true } }), 'issueGiftCard');
    rowsOfB.method = ok(await kit.run(b, PM, { p: rowsOfB.patient, i: { paymentMethodId: `pm_guard_${Date.now()}`, methodType: 'CARD', card: { brand: 'visa', last4: '4242', expMonth: 1, expYear: 2032 } } }), 'createPatientPaymentMethod');
    rowsOfB.member = ok(await kit.run(b, MEMBER, { i: { patientId: rowsOfB.patient, planName: 'Guarded', priceCents: 100, interval: 'MONTH', status: 'ACTIVE', balanceDueCents: 0 } }), 'createMember');
    const fees = { cardProcessingFee: 2.9, perTransactionFeeCents: 30, inPersonCardProcessingFee: 2.6, inPersonPerTransactionFeeCents: 10 };
    rowsOfB.account = ok(await kit.run(b, ACCOUNT, { i: { name: 'Guarded', processorAccountId: `acct_guard_${Date.now()}`, locationIds: [rowsOfB.location], ...fees } }), 'createMerchantAccount');
  });
  afterAll(() => kit?.close());

  /** A fresh entity manager of billing's ORM under `tenantId`'s guard, as a request's context makes one. */
  const guardedFor = (tenantId: string): EntityManager => TenantScope.ofStoredRow(tenantId).guard(kit.billing.orm.em.fork()) as never;

  it("finds B's rows under B's guard (the fixture is sound)", async () => {
    const em = guardedFor(b);
    const scope = TenantScope.ofStoredRow(b);
    expect(await new GiftCardRepository(em, scope).findById(rowsOfB.card)).toMatchObject({ id: rowsOfB.card, status: 'PENDING' });
    expect(await new MemberRepository(em, scope).findById(rowsOfB.member)).toMatchObject({ id: rowsOfB.member });
    expect(await new PaymentMethodRepository(em, scope).findById(rowsOfB.method)).toMatchObject({ id: rowsOfB.method });
    expect((await new MerchantAccountRepository(em, scope).list()).map((m) => m.id)).toEqual([rowsOfB.account]);
    expect([...(await new DirectoryRepository(em, scope).patients([rowsOfB.patient])).keys()]).toEqual([rowsOfB.patient]);
  });

  it("reads none of B's rows under A's guard, though the repositories were given B's scope", async () => {
    const em = guardedFor(a);
    const scope = TenantScope.ofStoredRow(b);
    expect(await new GiftCardRepository(em, scope).findById(rowsOfB.card)).toBeNull();
    expect(await new GiftCardRepository(em, scope).list(null, listWindow({ first: 20 }, GIFT_CARD_KEYS))).toMatchObject({ nodes: [], totalCount: 0 });
    expect(await new MemberRepository(em, scope).findById(rowsOfB.member)).toBeNull();
    expect(await new PaymentMethodRepository(em, scope).findById(rowsOfB.method)).toBeNull();
    expect(await new PaymentMethodRepository(em, scope).ofPatients([rowsOfB.patient], true)).toEqual([]);
    expect(await new MerchantAccountRepository(em, scope).list()).toEqual([]);
    expect((await new MerchantAccountRepository(em, scope).ofLocations([rowsOfB.location])).size).toBe(0);
    expect((await new DirectoryRepository(em, scope).patients([rowsOfB.patient])).size).toBe(0);
  });

  it("answers NOT_FOUND for B's ids under A's guard, and writes nothing of B's", async () => {
    const em = guardedFor(a);
    const scope = TenantScope.ofStoredRow(b);
    await expect(new GiftCardService(em, scope, NO_AUDIT).get(rowsOfB.card)).rejects.toThrow(NotFoundError);
    await expect(new MemberService(em, scope, NO_AUDIT).get(rowsOfB.member)).rejects.toThrow(NotFoundError);
    // The activation's locking read is guarded too: the card is not found, so it cannot be activated.
    await expect(new GiftCardService(em, scope, NO_AUDIT).activate(rowsOfB.card, false)).rejects.toThrow(NotFoundError);
    expect(await new GiftCardRepository(guardedFor(b), scope).findById(rowsOfB.card)).toMatchObject({ status: 'PENDING', currentBalanceCents: 0 });
  });

  it('refuses to query at all without a guard: the filter throws instead of reading every tenant', async () => {
    const unguarded = kit.billing.orm.em.fork() as never as EntityManager;
    await expect(new GiftCardRepository(unguarded, TenantScope.ofStoredRow(b)).findById(rowsOfB.card)).rejects.toThrow("No arguments provided for filter 'tenant'");
    await expect(new DirectoryRepository(unguarded, TenantScope.ofStoredRow(b)).patients([rowsOfB.patient])).rejects.toThrow("No arguments provided for filter 'tenant'");
  });

  it('treats ids of any shape as unknown without asking PostgreSQL (whose uuid cast would fail)', async () => {
    const em = guardedFor(b);
    const scope = TenantScope.ofStoredRow(b);
    for (const id of ['not-a-uuid', '', `${rowsOfB.card}x`, "1' or '1'='1"]) {
      expect(await new GiftCardRepository(em, scope).findById(id)).toBeNull();
      expect(await new MemberRepository(em, scope).findById(id)).toBeNull();
      expect(await new PaymentMethodRepository(em, scope).findById(id)).toBeNull();
      await expect(new GiftCardService(em, scope, NO_AUDIT).activate(id, false)).rejects.toThrow(NotFoundError);
    }
    // Upper case is the same UUID.
    expect(await new GiftCardRepository(em, scope).findById(rowsOfB.card.toUpperCase())).toMatchObject({ id: rowsOfB.card });
  });
});
