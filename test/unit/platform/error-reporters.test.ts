import { Writable } from 'node:stream';
import pino from 'pino';
import { jobQueueErrorReporter, OUTAGE_LOG_INTERVAL_MS, requestErrorReporter } from '../../../platform/error-reporters';
import { errorLogOptions } from '../../../platform/loggable-error';

/** A logger writing parsed lines into `lines`, with the redaction every process logger has. */
function capture() {
  const lines: Array<Record<string, any>> = [];
  const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(String(chunk))), done()) });
  return { lines, log: pino({ ...errorLogOptions }, sink) };
}

// pg-boss emits its workers' errors as plain copies of the driver's error, SQLSTATE and severity included.
const pgBossCopy = (message: string, extra: Record<string, unknown> = {}) => ({ ...extra, message, stack: `Error: ${message}\n    at x`, queue: 'tenant.webhook-event' });

describe('error reporters: an outage is one warning per interval, anything else every time', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-28T12:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it('writes a database outage of the job queue once per interval, with how many it held back', () => {
    const { lines, log } = capture();
    const report = jobQueueErrorReporter(log);
    for (let i = 0; i < 40; i++) report(pgBossCopy('terminating connection due to administrator command', { code: '57P01', severity: 'FATAL' }));
    jest.setSystemTime(Date.now() + OUTAGE_LOG_INTERVAL_MS);
    report(pgBossCopy('connect ECONNREFUSED 10.77.0.41:5432', { code: 'ECONNREFUSED' }));
    expect(lines.map((l) => [l.level, l.msg, l.heldBack, l.err.sqlState ?? l.err.message])).toEqual([
      [40, 'job queue: database unavailable; pg-boss tries again', undefined, '57P01'],
      [40, 'job queue: database unavailable; pg-boss tries again', 39, 'connect ECONNREFUSED 10.77.0.41:5432'],
    ]);
  });

  it("logs a job queue's other errors every time, as errors, redacted like thrown ones", () => {
    const { lines, log } = capture();
    const report = jobQueueErrorReporter(log);
    report(pgBossCopy('invalid input syntax for type uuid: "secret-value"', { code: '22P02', severity: 'ERROR' }));
    report(pgBossCopy('invalid input syntax for type uuid: "secret-value"', { code: '22P02', severity: 'ERROR' }));
    expect(lines.map((l) => [l.level, l.msg, l.err.sqlState])).toEqual([
      [50, 'job queue error', '22P02'],
      [50, 'job queue error', '22P02'],
    ]);
    expect(JSON.stringify(lines)).not.toContain('secret-value');
  });

  it("keeps a request's bugs at error level, each with its request id, and throttles outages", () => {
    const { lines, log } = capture();
    const report = requestErrorReporter(log, 'resolver failed');
    report(new Error('Connection terminated unexpectedly'), 'r1');
    report(new Error('Connection terminated unexpectedly'), 'r2');
    report(new TypeError('x is undefined'), 'r3');
    expect(lines.map((l) => [l.level, l.msg, l.requestId])).toEqual([
      [40, 'dependency unavailable', 'r1'],
      [50, 'resolver failed', 'r3'],
    ]);
  });
});
