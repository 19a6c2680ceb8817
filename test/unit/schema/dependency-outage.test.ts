import { GraphQLError } from 'graphql';
import { clientError } from '../../../schema/client-error';
import { dependencyOutage } from '../../../schema/dependency-outage';
import { ServiceUnavailableError } from '../../../schema/errors';

/** Errors as the drivers raise them: a code or a name on an Error. */
const withProps = (message: string, props: Record<string, unknown>) => Object.assign(new Error(message), props);

describe('dependencyOutage: which failures are an outage (503), not a bug (500)', () => {
  it.each([
    ['a refused connection', withProps('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED' })],
    ['PostgreSQL shutting down', withProps('terminating connection due to administrator command', { code: '57P01' })],
    ['PostgreSQL starting up', withProps('the database system is starting up', { code: '57P03' })],
    ['too many connections', withProps('sorry, too many clients already', { code: '53300' })],
    ['a connection exception', withProps('connection failure', { code: '08006' })],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    ['a dropped connection under a failed query, as knex words it', new Error('select "d".* from "analytics"."dashboards" as "d" where "d"."tenant_id" = $1 - Connection terminated unexpectedly')],
    ['a query on a broken connection', new Error('Client has encountered a connection error and is not queryable')],
    ["knex's pool timeout", withProps('Timeout acquiring a connection. The pool is probably full.', { name: 'KnexTimeoutError' })],
    ["knex's pool timeout as MikroORM wraps it (its name lost)", withProps('Knex: Timeout acquiring a connection. The pool is probably full.', { name: 'DriverException' })],
    ['the next query of a transaction whose BEGIN failed on a broken connection', withProps('Transaction query already complete, run with DEBUG=knex:tx for more info', { name: 'DriverException' })],
    ["MikroORM's connection exception", withProps('whatever', { name: 'ConnectionException' })],
    ["ioredis's command timeout", new Error('Command timed out')],
  ])('%s is a 503 with Retry-After', (_what, error) => {
    const outage = dependencyOutage(error);
    expect(outage).toBeInstanceOf(ServiceUnavailableError);
    expect(outage!.retryAfterSeconds).toBe(5);
    // Found through graphql-js's wrapping of a resolver's error too.
    expect(clientError(new GraphQLError('x', { path: ['a'], originalError: error }))).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'Service temporarily unavailable; retry the request',
      extensions: { code: 'SERVICE_UNAVAILABLE', retryAfter: 5 },
    });
  });

  it.each([
    ['a unique violation', withProps('duplicate key value violates unique constraint', { code: '23505' })],
    ['a syntax error', withProps('syntax error at or near', { code: '42601' })],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a message that only mentions it', new Error('the note says: Connection terminated')],
  ])('%s stays internal', (_what, error) => {
    expect(dependencyOutage(error)).toBeUndefined();
    expect(clientError(new GraphQLError('x', { path: ['a'], originalError: error }))).toBeUndefined();
  });

  it('looks through causes', () => {
    const wrapped = new Error('query failed', { cause: withProps('read ECONNRESET', { code: 'ECONNRESET' }) });
    expect(dependencyOutage(wrapped)).toBeInstanceOf(ServiceUnavailableError);
  });
});
