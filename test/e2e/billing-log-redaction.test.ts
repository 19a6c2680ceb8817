import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createTestTenant } from '../utils/e2e';
import { eventually } from '../utils/eventually';
import { serverLogs } from '../utils/server-logs';

const CREATE = 'mutation($i: CreateMerchantAccountInput!) { createMerchantAccount(input: $i) { id } }';
const fees = { cardProcessingFee: 2.9, perTransactionFeeCents: 30, inPersonCardProcessingFee: 2.6, inPersonPerTransactionFeeCents: 10 };

/**
 * Issue 18, finding 12: a database error's message holds the failing statement with its values
 * (MikroORM) and pg's own message and detail may quote them. A real database error is provoked
 * with a trigger that refuses one probe row as a check constraint would, so the statement carries
 * a recognisable processor id; no log line of any server process (the gateway, and in distributed
 * mode the billing service, which logs the resolver's failure) may contain it.
 */
describe(`database errors in the logs (${process.env.E2E_MODE} mode)`, () => {
  const db = new Client({ connectionString: process.env.DATABASE_URL });

  beforeAll(async () => {
    await db.connect();
    await db.query(`create or replace function billing.log_probe_refuse() returns trigger language plpgsql as $$
      begin
        if new.name like 'log-probe%' then
          raise exception 'log probe refused %', new.processor_account_id
            using errcode = '23514', detail = 'Failing row contains (' || new.processor_account_id || ').', table = 'merchant_accounts', constraint = 'log_probe_check';
        end if;
        return new;
      end $$`);
    await db.query(`create or replace trigger log_probe before insert on billing.merchant_accounts for each row execute function billing.log_probe_refuse()`);
  });
  afterAll(async () => {
    await db.query(`drop trigger if exists log_probe on billing.merchant_accounts`);
    await db.query(`drop function if exists billing.log_probe_refuse()`);
    await db.end();
  });

  it("logs the failure as kind, SQLSTATE and constraint, without the statement's values", async () => {
    const tenant = await createTestTenant('Log probe');
    const secret = randomUUID().replace(/-/g, '');
    // A line break carries the value past a stack's first line (which repeats the message).
    const res = await tenant.graphql(CREATE, { i: { name: `log-probe\nname-${secret}`, processorAccountId: `acct_probe\n${secret}`, ...fees } });
    expect(res.body.errors[0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
    expect(res.text).not.toContain(secret);
    const requestId = res.headers.get('x-request-id')!;
    // The line of the failure, with the request's id (the operator's way from a 500 to its cause).
    const line = await eventually(() =>
      serverLogs()
        .split('\n')
        .find((l) => l.includes(requestId) && l.includes('"sqlState"')),
    );
    expect(line).toBeDefined();
    expect(serverLogs()).not.toContain(secret);
    // The insert is an ORM flush: MikroORM's exception, whose message holds the statement with its values, around pg's error.
    expect(JSON.parse(line!).err).toMatchObject({ type: 'CheckConstraintViolationException', sqlState: '23514', table: 'merchant_accounts', constraint: 'log_probe_check' });
  });
});
