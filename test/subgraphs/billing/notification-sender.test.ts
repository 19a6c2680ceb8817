import { NotificationSender, MAX_ATTEMPTS } from '../../../subgraphs/billing/notifications/notification-sender';
import type { MailMessage, MailTransport } from '../../../subgraphs/billing/notifications/mail-transport';
import { formatCents, giftCardEmail } from '../../../subgraphs/billing/notifications/gift-card-email';

/** One due row as the sender's claim query returns it. */
const ROW = { id: 'n-1', tenantId: 't-1', giftCardId: 'g-1', to: 'rae@example.com', attempts: 0, code: 'ABCD-EFGH-JKMN-PQRS', amountCents: 5000, recipientName: 'Rae', purchaserName: null, note: null };

/**
 * A stand-in for the ORM: the claim query answers `rows` once, every other statement is recorded.
 * The real queue is shared with the end-to-end server's sender, so failures are tested here.
 */
function fakeOrm(rows: (typeof ROW)[]) {
  const statements: { sql: string; params: unknown[] }[] = [];
  let claimed = false;
  const tx = {
    getTransactionContext: () => undefined,
    getConnection: () => ({
      execute: async (sql: string, params: unknown[]) => {
        if (sql.includes('for update of n skip locked')) {
          const answer = claimed ? [] : rows;
          claimed = true;
          return answer;
        }
        // Savepoints frame each row's bookkeeping; the assertions are about the bookkeeping itself.
        if (!/savepoint/i.test(sql)) statements.push({ sql, params });
        return [];
      },
    }),
  };
  const orm = { em: { fork: () => ({ transactional: (cb: (t: typeof tx) => unknown) => cb(tx) }) } };
  return { orm: orm as never, statements };
}

function transport(fail?: Error & { code?: string }): MailTransport & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    sent,
    async send(message) {
      if (fail) throw fail;
      sent.push(message);
      return { messageId: '<m-1@example.com>' };
    },
    close: () => undefined,
  };
}

describe('NotificationSender (retry logic, no database)', () => {
  const log = () => ({ warn: jest.fn(), error: jest.fn() });

  it('marks a sent notification and the card, binding each row to its own tenant', async () => {
    const { orm, statements } = fakeOrm([ROW]);
    const mail = transport();
    const sender = new NotificationSender(orm, mail, { pollMs: 60_000, log: log() });
    expect(await sender.runOnce()).toBe(1);
    expect(mail.sent).toEqual([giftCardEmail(ROW)]);
    expect(statements.map((s) => s.params)).toEqual([['<m-1@example.com>', 'n-1', 't-1'], ['g-1', 't-1']]);
    await sender.stop();
  });

  it('backs off after a failure, gives up after the last attempt, and logs codes only', async () => {
    const failure = Object.assign(new Error('connect ECONNREFUSED rae@example.com'), { code: 'ECONNECTION' });
    const first = fakeOrm([ROW]);
    const logger = log();
    const sender = new NotificationSender(first.orm, transport(failure), { pollMs: 60_000, log: logger });
    expect(await sender.runOnce()).toBe(0);
    expect(first.statements[0].params).toEqual([1, 'ECONNECTION', 60, false, 'n-1', 't-1']);
    expect(JSON.stringify(logger.warn.mock.calls)).not.toContain('rae@example.com');
    expect(logger.warn).toHaveBeenCalledWith({ notificationId: 'n-1', attempts: 1, errorType: 'ECONNECTION' }, 'notification not sent');

    const last = fakeOrm([{ ...ROW, attempts: MAX_ATTEMPTS - 1 }]);
    await new NotificationSender(last.orm, transport(failure), { pollMs: 60_000, log: log() }).runOnce();
    expect(last.statements[0].params.slice(0, 4)).toEqual([MAX_ATTEMPTS, 'ECONNECTION', 43_200, true]);
  });

  it('writes the recipient e-mail with the code and the amount in units', () => {
    expect(formatCents(5000)).toBe('50.00');
    expect(formatCents(1205)).toBe('12.05');
    const mail = giftCardEmail({ ...ROW, purchaserName: 'Sam', note: 'Enjoy' });
    expect(mail).toEqual({ to: 'rae@example.com', subject: 'You have received a gift card', text: expect.stringContaining('Sam has sent you a gift card worth 50.00') });
    expect(mail.text).toContain('Your gift card code: ABCD-EFGH-JKMN-PQRS');
    expect(mail.text).toContain('Enjoy');
  });
});
