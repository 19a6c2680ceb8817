import { ProcessorUnreachableError, type ChargeRequest, type OpenAccountRequest, type PaymentProcessor } from '../../../subgraphs/billing';
import { SandboxPaymentProcessor, type BillingDeps } from '../../../subgraphs/billing';
import { codeOf, issuesOf, startBillingKit, type BillingKit } from './billing-kit';

/** A processor that opens accounts as the sandbox does (one per key) and can lose the answer after opening. */
class OpeningProcessor implements PaymentProcessor {
  readonly requests: OpenAccountRequest[] = [];
  readonly opened = new Set<string>();
  loseNextAnswer = false;
  private readonly sandbox = new SandboxPaymentProcessor();

  charge(request: ChargeRequest) {
    return this.sandbox.charge(request);
  }

  async createMerchantAccount(request: OpenAccountRequest) {
    this.requests.push(request);
    const answer = await this.sandbox.createMerchantAccount(request);
    this.opened.add(answer.accountId);
    if (this.loseNextAnswer) {
      this.loseNextAnswer = false;
      throw new ProcessorUnreachableError('read ETIMEDOUT');
    }
    return answer;
  }
}

const CREATE = 'mutation($i: CreateMerchantAccountInput!) { createMerchantAccount(input: $i) { id name isDefault cardProcessingFee perTransactionFeeCents inPersonCardProcessingFee inPersonPerTransactionFeeCents locationIds createdAt updatedAt } }';
const LIST = '{ merchantAccounts { id isDefault locationIds } }';
// Processor ids are one tenant's across the database, which outlives a run: each run uses its own.
const run = Math.random().toString(36).slice(2, 10);
const acct = (name: string) => `acct_${name}_${run}`;
const fees = { cardProcessingFee: 2.9, perTransactionFeeCents: 30, inPersonCardProcessingFee: 2.6, inPersonPerTransactionFeeCents: 10 };

describe('billing subgraph: merchant accounts (real PostgreSQL)', () => {
  let kit: BillingKit;
  beforeAll(async () => {
    kit = await startBillingKit();
  });
  afterAll(() => kit.close());

  it('makes the first account the default and moves the default in one transaction', async () => {
    const t = await kit.tenant();
    const [l1, l2] = [await kit.location(t, { name: 'One' }), await kit.location(t, { name: 'Two', isVirtual: true })];
    const first = await kit.run(t, CREATE, { i: { name: 'Main', processorAccountId: acct('main'), ...fees, locationIds: [l2, l1, l1] } });
    expect(first.errors).toBeUndefined();
    expect(first.data.createMerchantAccount).toMatchObject({ id: acct('main'), isDefault: true, cardProcessingFee: 2.9, perTransactionFeeCents: 30, locationIds: [l1, l2].sort() });
    const second = await kit.run(t, CREATE, { i: { name: 'Second', ...fees, locationIds: [] } });
    expect(second.data.createMerchantAccount).toMatchObject({ id: expect.stringMatching(/^acct_sandbox_[0-9a-f]{16}$/), isDefault: false });
    const third = await kit.run(t, CREATE, { i: { name: 'Third', processorAccountId: acct('3'), isDefault: true, ...fees } });
    expect(third.data.createMerchantAccount.isDefault).toBe(true);
    const list = await kit.run(t, LIST);
    expect(list.data.merchantAccounts.filter((m: any) => m.isDefault).map((m: any) => m.id)).toEqual([acct('3')]);
    const moved = await kit.run(t, 'mutation($id: ID!) { setDefaultMerchantAccount(id: $id) { id isDefault } }', { id: acct('main') });
    expect(moved.data.setDefaultMerchantAccount).toEqual({ id: acct('main'), isDefault: true });
    expect((await kit.run(t, LIST)).data.merchantAccounts.map((m: any) => [m.id, m.isDefault])[0]).toEqual([acct('main'), true]);
    expect(codeOf(await kit.run(t, CREATE, { i: { name: 'Dup', processorAccountId: acct('main'), ...fees } }))).toBe('CONFLICT');
  });

  it("has exactly one default when accounts are created concurrently", async () => {
    const t = await kit.tenant();
    await Promise.all([1, 2, 3, 4].map((i) => kit.run(t, CREATE, { i: { name: `A${i}`, processorAccountId: acct(String(i)), ...fees } })));
    expect((await kit.run(t, LIST)).data.merchantAccounts.filter((m: any) => m.isDefault)).toHaveLength(1);
  });

  it("validates fees and locations; another tenant's location reads as unknown", async () => {
    const [t, other] = [await kit.tenant(), await kit.tenant()];
    const theirs = await kit.location(other);
    const result = await kit.run(t, CREATE, { i: { name: ' ', cardProcessingFee: 101, perTransactionFeeCents: -1, inPersonCardProcessingFee: 1.23456, inPersonPerTransactionFeeCents: 100001, locationIds: [theirs, 'x'] } });
    expect(issuesOf(result).map((i) => [i.type, i.loc.join('.')])).toEqual([
      ['value_error', 'input.name'],
      ['value_error', 'input.cardProcessingFee'],
      ['greater_than_equal', 'input.perTransactionFeeCents'],
      ['value_error', 'input.inPersonCardProcessingFee'],
      ['less_than_equal', 'input.inPersonPerTransactionFeeCents'],
      ['value_error', 'input.locationIds.0'],
      ['value_error', 'input.locationIds.1'],
    ]);
    expect((await kit.run(t, LIST)).data.merchantAccounts).toEqual([]);
    expect(codeOf(await kit.run(t, 'mutation { setDefaultMerchantAccount(id: "acct_main") { id } }'))).toBe('NOT_FOUND');
  });

  describe('opened at the processor with an idempotency key', () => {
    let processor: OpeningProcessor;
    beforeEach(() => {
      processor = new OpeningProcessor();
      (kit.billing.deps as BillingDeps).processor = processor;
    });
    afterEach(() => void ((kit.billing.deps as BillingDeps).processor = new SandboxPaymentProcessor()));

    it('opens one account when the first answer was lost, and a retry after success answers it unchanged', async () => {
      const [t, other] = [await kit.tenant(), await kit.tenant()];
      processor.loseNextAnswer = true;
      const lost = await kit.run(t, CREATE, { i: { name: 'Front desk', idempotencyKey: 'open-front-desk', ...fees } });
      expect(codeOf(lost)).toBe('SERVICE_UNAVAILABLE');
      expect((await kit.run(t, LIST)).data.merchantAccounts).toEqual([]);

      const retried = await kit.run(t, CREATE, { i: { name: 'Front desk', idempotencyKey: 'open-front-desk', ...fees } });
      expect(retried.errors).toBeUndefined();
      const account = retried.data.createMerchantAccount;
      expect(account).toMatchObject({ name: 'Front desk', isDefault: true });
      expect(processor.opened).toEqual(new Set([account.id]));

      // Its answer lost too: the same request again answers the registered account, as it was created.
      const again = await kit.run(t, CREATE, { i: { name: 'Renamed', idempotencyKey: 'open-front-desk', ...fees, perTransactionFeeCents: 99 } });
      expect(again.data.createMerchantAccount).toEqual(account);
      expect((await kit.run(t, LIST)).data.merchantAccounts.map((m: any) => m.id)).toEqual([account.id]);

      // Keys are the tenant's own: another tenant's same key opens another account.
      const theirs = await kit.run(other, CREATE, { i: { name: 'Front desk', idempotencyKey: 'open-front-desk', ...fees } });
      expect(theirs.data.createMerchantAccount.id).not.toBe(account.id);
      expect(processor.requests.map((r) => r.idempotencyKey)).toEqual([`${t}:open-front-desk`, `${t}:open-front-desk`, `${t}:open-front-desk`, `${other}:open-front-desk`]);
    });

    it('opens a new account on every call without a key', async () => {
      const t = await kit.tenant();
      const first = await kit.run(t, CREATE, { i: { name: 'Walk-in', ...fees } });
      const second = await kit.run(t, CREATE, { i: { name: 'Walk-in', ...fees } });
      expect(first.data.createMerchantAccount.id).not.toBe(second.data.createMerchantAccount.id);
      expect(processor.opened.size).toBe(2);
    });

    it('refuses an empty or overlong key before calling the processor', async () => {
      const t = await kit.tenant();
      for (const idempotencyKey of [' ', 'k'.repeat(256)]) {
        const refused = await kit.run(t, CREATE, { i: { name: 'Keyed', idempotencyKey, ...fees } });
        expect(issuesOf(refused).map((i) => [i.type, i.loc.join('.')])).toEqual([['value_error', 'input.idempotencyKey']]);
      }
      expect(processor.requests).toEqual([]);
    });
  });

  it('extends Location with merchantAccounts through _entities, tenant-scoped', async () => {
    const [t, other] = [await kit.tenant(), await kit.tenant()];
    const mine = await kit.location(t);
    const theirs = await kit.location(other);
    await kit.run(t, CREATE, { i: { name: 'Mine', processorAccountId: acct('m'), ...fees, locationIds: [mine] } });
    await kit.run(other, CREATE, { i: { name: 'Theirs', processorAccountId: acct('t'), ...fees, locationIds: [theirs] } });
    const query = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Location { id merchantAccounts { id locations { id } } } } }';
    const result = await kit.run(t, query, { r: [mine, theirs].map((id) => ({ __typename: 'Location', id })) });
    expect(result.data._entities).toEqual([{ id: mine, merchantAccounts: [{ id: acct('m'), locations: [{ id: mine }] }] }, { id: theirs, merchantAccounts: [] }]);
  });
});
