import { Client } from 'pg';
import { TenantScope } from '../../../platform/tenant-scope';
import { GiftCardService } from '../../../subgraphs/billing/services/gift-card.service';
import { auditRecords, changeBy, refusedAudit, runAudited, AUDIT_KEY_ID, type AuditedRun } from '../../utils/audit-records';
import { codeOf, startBillingKit, type BillingKit } from './billing-kit';

const ISSUE = 'mutation($i: IssueGiftCardInput!) { issueGiftCard(input: $i) { id } }';
const ACTIVATE = 'mutation($id: ID!) { activateGiftCard(id: $id, sendNotification: false) { id } }';
const METHOD = 'mutation($p: ID!, $i: CreatePaymentMethodInput!) { createPatientPaymentMethod(patientId: $p, input: $i) { id } }';
const MEMBER = 'mutation($i: CreateMemberInput!) { createMember(input: $i) { id } }';
const PAY = 'mutation($i: MemberManualPaymentInput!) { makeMemberManualPayment(input: $i) { paymentId status } }';
const ACCOUNT = 'mutation($i: CreateMerchantAccountInput!) { createMerchantAccount(input: $i) { id } }';
const DEFAULT = 'mutation($id: ID!) { setDefaultMerchantAccount(id: $id) { id } }';
const CHARGE = 'mutation($i: RecordChargeItemInput!) { recordChargeItem(input: $i) { id } }';
const PACKAGE = 'mutation($i: RecordSoldPackageInput!) { recordSoldPackage(input: $i) { id } }';
const FEES = { cardProcessingFee: 2.9, perTransactionFeeCents: 30, inPersonCardProcessingFee: 2.6, inPersonPerTransactionFeeCents: 10 };
const card = () => ({ paymentMethodId: `pm_${Math.random().toString(36).slice(2)}`, methodType: 'CARD', card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2031 } });

/**
 * Billing in the audit trail (docs/audit.md): every mutation's change record, written in its
 * transaction; reads of PHI (gift cards naming a person, members, payment methods), one record
 * each naming exactly the rows returned that are PHI.
 */
describe('billing subgraph: audit records (real PostgreSQL)', () => {
  let kit: BillingKit;
  let db: Client;

  beforeAll(async () => {
    kit = await startBillingKit();
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await kit.close();
  });

  const run = async (tenantId: string, query: string, variables?: Record<string, unknown>): Promise<AuditedRun> => {
    const result = await runAudited(kit.billing, tenantId, query, variables);
    expect(result.errors).toBeUndefined();
    return result;
  };
  const records = (tenantId: string) => auditRecords(db, tenantId, kit.billing, kit.tenantGraph);
  /** The tenant's records after the directory set-up (the tenant subgraph's own `patient.create` and the like). */
  const billingRecords = async (tenantId: string) => (await records(tenantId)).filter((row) => row.actor_id === AUDIT_KEY_ID);

  it('records every mutation with the ids it changed, the key, the request and the address', async () => {
    const t = await kit.tenant('Audit Billing');
    const patient = await kit.patient(t);
    const location = await kit.location(t);
    const issued = await run(t, ISSUE, { i: { initialValueCents: 5000, purchasingPatientId: patient, recipientPatientId: patient } });
    const cardId = issued.data.issueGiftCard.id;
    const activated = await run(t, ACTIVATE, { id: cardId });
    const method = await run(t, METHOD, { p: patient, i: card() });
    const methodId = method.data.createPatientPaymentMethod.id;
    const member = await run(t, MEMBER, { i: { patientId: patient, planName: 'Wellness', priceCents: 4900, interval: 'MONTH', status: 'PAST_DUE', balanceDueCents: 4900 } });
    const memberId = member.data.createMember.id;
    const paid = await run(t, PAY, { i: { memberId, paymentMethodId: methodId } });
    expect(paid.data.makeMemberManualPayment.status).toBe('SUCCEEDED');
    const first = await run(t, ACCOUNT, { i: { name: 'Main', locationIds: [location], ...FEES } });
    const second = await run(t, ACCOUNT, { i: { name: 'Second', locationIds: [location], ...FEES } });
    const madeDefault = await run(t, DEFAULT, { id: second.data.createMerchantAccount.id });
    const charge = await run(t, CHARGE, { i: { locationId: location, patientId: patient, itemCategory: 'Physio', itemType: 'SERVICE', itemName: 'Visit', paymentMedium: 'CARD', grossCents: 9000, discountCents: 0 } });
    const pack = await run(t, PACKAGE, { i: { locationId: location, packageName: '5-visit pack', paymentMedium: 'CASH', grossCents: 40000 } });

    expect(await billingRecords(t)).toMatchObject([
      changeBy(issued, 'gift_card.issue', 'gift_card', [cardId]),
      changeBy(activated, 'gift_card.activate', 'gift_card', [cardId]),
      changeBy(method, 'payment_method.create', 'payment_method', [methodId]),
      changeBy(member, 'member.create', 'member', [memberId]),
      changeBy(paid, 'member.manual_payment', 'member', [memberId]),
      changeBy(first, 'merchant_account.create', 'merchant_account', [first.data.createMerchantAccount.id]),
      changeBy(second, 'merchant_account.create', 'merchant_account', [second.data.createMerchantAccount.id]),
      changeBy(madeDefault, 'merchant_account.set_default', 'merchant_account', [second.data.createMerchantAccount.id]),
      changeBy(charge, 'charge_item.record', 'charge_item', [charge.data.recordChargeItem.id]),
      changeBy(pack, 'sold_package.record', 'sold_package', [pack.data.recordSoldPackage.id]),
    ]);
    // The same method sent again is answered as stored, not created: a read, not a change.
    const again = await run(t, METHOD, { p: patient, i: { ...card(), paymentMethodId: (await db.query('select processor_payment_method_id as id from billing.payment_methods where id = $1', [methodId])).rows[0].id } });
    expect(again.data.createPatientPaymentMethod.id).toBe(methodId);
    expect((await billingRecords(t)).slice(10)).toMatchObject([{ action: 'payment_method.read', resource_type: 'payment_method', resource_ids: [methodId], request_id: again.requestId }]);
  });

  it('records reads of gift cards that name a person, members and payment methods: the ids returned, once per read', async () => {
    const t = await kit.tenant('Audit Billing Reads');
    const [ann, bob] = [await kit.patient(t, { firstName: 'Ann' }), await kit.patient(t, { firstName: 'Bob' })];
    const named = (await run(t, ISSUE, { i: { initialValueCents: 1000, purchasingPatientId: ann, recipientPatientEmail: 'friend@example.com' } })).data.issueGiftCard.id;
    const anonymous = (await run(t, ISSUE, { i: { initialValueCents: 2000, suppressRecipientNotification: true } })).data.issueGiftCard.id;
    const methods = [(await run(t, METHOD, { p: ann, i: card() })).data.createPatientPaymentMethod.id, (await run(t, METHOD, { p: bob, i: card() })).data.createPatientPaymentMethod.id];
    const members = [];
    for (const patientId of [ann, bob]) members.push((await run(t, MEMBER, { i: { patientId, planName: 'Plan', priceCents: 100, interval: 'MONTH', status: 'ACTIVE', balanceDueCents: 0 } })).data.createMember.id);
    const before = (await billingRecords(t)).length;

    const list = await run(t, '{ issuedGiftCards { nodes { id } } }');
    expect(list.data.issuedGiftCards.nodes).toHaveLength(2);
    const oneNamed = await run(t, 'query($id: ID!) { issuedGiftCard(id: $id) { id } }', { id: named });
    await run(t, 'query($id: ID!) { issuedGiftCard(id: $id) { id } }', { id: anonymous });
    const memberList = await run(t, '{ members { nodes { id } } }');
    const oneMember = await run(t, 'query($id: ID!) { member(id: $id) { id } }', { id: members[1] });
    const entities = await run(t, 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Patient { paymentMethods { id } } } }', {
      r: [ann, bob].map((id) => ({ __typename: 'Patient', id })),
    });
    expect(entities.data._entities.flatMap((p: { paymentMethods: unknown[] }) => p.paymentMethods)).toHaveLength(2);
    await run(t, '{ issuedGiftCards(status: DISABLED) { nodes { id } } members(status: CANCELLED) { nodes { id } } }');

    const reads = (await billingRecords(t)).slice(before);
    const read = (r: AuditedRun, type: string) => ({ action: `${type}.read`, resource_type: type, actor_kind: 'key', outcome: 'success', request_id: r.requestId });
    expect(reads).toMatchObject([
      { ...read(list, 'gift_card'), resource_ids: [named] },
      { ...read(oneNamed, 'gift_card'), resource_ids: [named] },
      { ...read(memberList, 'member'), resource_ids: expect.arrayContaining(members) },
      { ...read(oneMember, 'member'), resource_ids: [members[1]] },
      { ...read(entities, 'payment_method'), resource_ids: expect.arrayContaining(methods) },
    ]);
    expect(reads[2].resource_ids).toHaveLength(2);
    expect(reads[4].resource_ids).toHaveLength(2);
  });

  it('a refused change records nothing, and a change whose record is refused is undone with it', async () => {
    const t = await kit.tenant('Audit Billing Refusals');
    const cardId = (await run(t, ISSUE, { i: { initialValueCents: 1000, suppressRecipientNotification: true } })).data.issueGiftCard.id;
    await run(t, ACTIVATE, { id: cardId });
    const twice = await runAudited(kit.billing, t, ACTIVATE, { id: cardId });
    expect(codeOf(twice)).toBe('CONFLICT');
    const unknownPatient = await runAudited(kit.billing, t, MEMBER, { i: { patientId: '00000000-0000-4000-8000-000000000000', planName: 'Plan', priceCents: 1, interval: 'MONTH', status: 'ACTIVE', balanceDueCents: 0 } });
    expect(unknownPatient.errors).toBeDefined();
    expect((await billingRecords(t)).map((row) => row.action)).toEqual(['gift_card.issue', 'gift_card.activate']);

    const other = (await run(t, ISSUE, { i: { initialValueCents: 3000, suppressRecipientNotification: true } })).data.issueGiftCard.id;
    const scope = TenantScope.ofStoredRow(t);
    const service = new GiftCardService(scope.guard(kit.billing.orm.em.fork() as never), scope, refusedAudit(t));
    await expect(service.issue({ initialValueCents: 500, suppressRecipientNotification: true } as never)).rejects.toThrow(/actor_kind/);
    await expect(service.activate(other, false)).rejects.toThrow(/actor_kind/);
    const { rows } = await db.query('select id::text, status from billing.gift_cards where tenant_id = $1 order by created_at', [t]);
    expect(rows).toEqual([{ id: cardId, status: 'ACTIVE' }, { id: other, status: 'PENDING' }]);
    expect(await billingRecords(t)).toHaveLength(3);
  });
});
