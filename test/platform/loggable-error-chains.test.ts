import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { GraphQLError, locatedError } from 'graphql';
import pino from 'pino';
import { GATEWAY_SCHEMA } from '../../gateway/database/gateway-schema';
import { createLogger } from '../../gateway/logger';
import { errorLogOptions, loggableError } from '../../platform/loggable-error';
import { closeOrm, openOrm } from '../../platform/orm';

/**
 * Issue 18, finding 12: database errors reach loggers wrapped (a GraphQL error's originalError, a
 * cause, an AggregateError), as the first argument of a log call (pino then takes the message as
 * the line's msg) or under another key, and a value with a line break spreads past the stack's
 * first line. None of these may put the statement's values into a line.
 */
describe('database errors never reach a log line with their values, however wrapped', () => {
  let orm: Awaited<ReturnType<typeof openOrm>>;
  let secret: string;
  let driverError: Error;

  beforeAll(async () => {
    orm = await openOrm(GATEWAY_SCHEMA, process.env.DATABASE_URL!);
    secret = `fp_${randomUUID()}`;
    // A real failing statement: MikroORM puts the SQL with the value into its message, pg quotes the value.
    driverError = await orm.em.getConnection().execute('select ?::uuid as id', [`not-a-uuid\n${secret}`]).then(
      () => new Error('the statement succeeded'),
      (error: Error) => error,
    );
  });
  afterAll(() => closeOrm(orm));

  it('the probe is a driver error whose message and stack hold the value', () => {
    expect(loggableError(driverError).type).toBe('DatabaseError');
    expect(driverError.message).toContain(secret);
    expect(driverError.stack!.split('\n').slice(1).join('\n')).toContain(secret);
    expect(loggableError(driverError)).toMatchObject({ sqlState: '22P02' });
  });

  it.each([
    ['the driver error itself', () => driverError],
    ['a GraphQL error whose originalError it is', () => locatedError(driverError, undefined, ['createMerchantAccount'])],
    ['an error with it as cause, quoting its message', () => new Error(`saving failed: ${driverError.message}`, { cause: driverError })],
    ['a cause two levels down', () => new TypeError('outer', { cause: new Error(`middle ${driverError.message}`, { cause: driverError }) })],
    ['an AggregateError holding it', () => new AggregateError([new Error('other'), driverError], `several: ${driverError.message}`)],
    ['a GraphQL error over a wrapped one', () => new GraphQLError(`x ${driverError.message}`, { originalError: new Error('wrapper', { cause: driverError }) })],
  ])('%s: kinds and SQLSTATE only', (_name, make) => {
    const logged = loggableError(make());
    expect(JSON.stringify(logged)).not.toContain(secret);
    expect(logged).toMatchObject({ sqlState: '22P02' });
    expect(logged).not.toHaveProperty('message');
    expect(logged).not.toHaveProperty('stack');
  });

  it('keeps message, frames and cause of errors without a database error in them', () => {
    const logged = loggableError(new Error('processor answered 502', { cause: new Error('connect ECONNREFUSED 10.0.0.9:443') }));
    expect(logged).toMatchObject({ type: 'Error', message: 'processor answered 502', cause: { message: 'connect ECONNREFUSED 10.0.0.9:443' } });
    expect(String(logged.stack)).toMatch(/^\s+at /);
    // A cycle of causes ends.
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(JSON.stringify(loggableError(a))).toContain('"message":"b"');
  });

  it.each([
    ['the gateway logger', (stream: Writable) => createLogger('info', stream)],
    ['a subgraph service logger', (stream: Writable) => pino({ base: { service: 'billing' }, ...errorLogOptions }, stream)],
  ])('%s writes no value whichever way the error is handed over', (_name, make) => {
    const lines: string[] = [];
    const log = make(new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
    log.error(driverError);
    log.error({ err: driverError });
    log.error({ error: driverError, requestId: 'r1' }, 'failed');
    log.child({ component: 'x' }).warn({ err: locatedError(driverError, undefined, ['f']) });
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line).not.toContain(secret);
    expect(JSON.parse(lines[0])).toMatchObject({ msg: 'error', err: { sqlState: '22P02' } });
    expect(JSON.parse(lines[2])).toMatchObject({ msg: 'failed', error: { sqlState: '22P02' }, requestId: 'r1' });
  });
});
