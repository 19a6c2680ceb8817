import { GraphQLError, GraphQLScalarType, graphql, parse, GraphQLObjectType, GraphQLSchema, GraphQLString, GraphQLNonNull } from 'graphql';
import { clientError } from '../../../schema/client-error';
import { ConflictError, NotFoundError, RateLimitedError, ServiceUnavailableError, ValidationError, valueError } from '../../../schema/errors';

/** A scalar whose parser refuses everything, with a code or without one. */
const refusing = (name: string, coded: boolean) =>
  new GraphQLScalarType({
    name,
    parseValue: () => {
      throw coded ? new GraphQLError('not a colour', { extensions: { code: 'BAD_USER_INPUT' } }) : new TypeError('not a colour');
    },
  });

/** Each field throws what its name says, so the errors come from graphql-js itself, located as it locates them. */
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      missing: { type: GraphQLString, resolve: () => Promise.reject(new NotFoundError()) },
      bug: { type: GraphQLString, resolve: () => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'id')")) },
      coded: { type: GraphQLString, resolve: () => Promise.reject(new GraphQLError('Slow down', { extensions: { code: 'RATE_LIMITED', retryAfter: 2 } })) },
      uncoded: { type: GraphQLString, resolve: () => Promise.reject(new GraphQLError('socket hang up')) },
      internal: { type: GraphQLString, resolve: () => Promise.reject(new GraphQLError('pool exhausted', { extensions: { code: 'INTERNAL_SERVER_ERROR' } })) },
      nonNull: { type: new GraphQLNonNull(GraphQLString), resolve: () => null },
      colour: { type: GraphQLString, args: { a: { type: refusing('Coded', true) }, b: { type: refusing('Uncoded', false) } }, resolve: () => 'red' },
    },
  }),
});

/** The first error graphql-js reports for a document (and variables). */
async function firstError(source: string, variableValues?: Record<string, unknown>): Promise<GraphQLError> {
  const result = await graphql({ schema, source, variableValues });
  if (!result.errors?.length) throw new Error(`no error for ${source}`);
  return result.errors[0];
}

describe('clientError: whether an error is internal, for every surface', () => {
  describe('domain errors', () => {
    it('keeps the code, the message and the extensions of each typed error', () => {
      const issues = [{ type: 'missing', loc: ['input', 'name'], msg: 'Field required', input: null }];
      expect(clientError(new ValidationError(issues))).toEqual({ code: 'BAD_USER_INPUT', message: 'Field required', extensions: { code: 'BAD_USER_INPUT', validation: issues } });
      expect(clientError(new ConflictError('Already redeemed'))).toEqual({ code: 'CONFLICT', message: 'Already redeemed', extensions: { code: 'CONFLICT' } });
      expect(clientError(new RateLimitedError(3))).toEqual({ code: 'RATE_LIMITED', message: 'Rate limit exceeded', extensions: { code: 'RATE_LIMITED', retryAfter: 3 } });
    });

    it("tells a 503's message and retryAfter, never its cause", () => {
      const outage = new ServiceUnavailableError('Payment processor unavailable', 10, { cause: new Error('connect ECONNREFUSED 10.0.0.7:443') });
      const client = clientError(outage);
      expect(client).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'Payment processor unavailable', extensions: { code: 'SERVICE_UNAVAILABLE', retryAfter: 10 } });
      expect(JSON.stringify(client)).not.toContain('ECONNREFUSED');
    });

    it('sees through the GraphQLError graphql-js wraps a resolver\'s domain error in', async () => {
      const error = await firstError('{ missing }');
      expect(error.originalError).toBeInstanceOf(NotFoundError);
      expect(clientError(error)).toEqual({ code: 'NOT_FOUND', message: 'Not Found', extensions: { code: 'NOT_FOUND' } });
    });
  });

  describe('request errors (raised before any resolver ran)', () => {
    it('a syntax error is the caller\'s: BAD_USER_INPUT', () => {
      let syntax: unknown;
      try {
        parse('{ missing');
      } catch (error) {
        syntax = error;
      }
      expect(clientError(syntax)).toMatchObject({ code: 'BAD_USER_INPUT', message: expect.stringMatching(/^Syntax Error/) });
    });

    it('a validation error is the caller\'s', async () => {
      expect(clientError(await firstError('{ nothingHere }'))).toMatchObject({ code: 'BAD_USER_INPUT', message: expect.stringContaining('nothingHere') });
    });

    it("a variable a scalar refuses is the caller's, with the scalar's own code when it has one", async () => {
      expect(clientError(await firstError('query ($a: Coded) { colour(a: $a) }', { a: 'x' }))).toMatchObject({ code: 'BAD_USER_INPUT', extensions: { code: 'BAD_USER_INPUT' } });
      expect(clientError(await firstError('query ($b: Uncoded) { colour(b: $b) }', { b: 'x' }))).toMatchObject({ code: 'BAD_USER_INPUT' });
    });
  });

  describe('errors raised while resolving', () => {
    it('a bug is internal', async () => {
      expect(clientError(await firstError('{ bug }'))).toBeUndefined();
    });

    it('a broken promise of the schema (null for a non-null field) is internal', async () => {
      expect(clientError(await firstError('{ nonNull }'))).toBeUndefined();
    });

    it('a GraphQLError thrown with a code on purpose keeps it, and its extensions', async () => {
      expect(clientError(await firstError('{ coded }'))).toEqual({ code: 'RATE_LIMITED', message: 'Slow down', extensions: { code: 'RATE_LIMITED', retryAfter: 2 } });
    });

    it('a GraphQLError without a code, or with INTERNAL_SERVER_ERROR, is internal', async () => {
      expect(clientError(await firstError('{ uncoded }'))).toBeUndefined();
      expect(clientError(await firstError('{ internal }'))).toBeUndefined();
    });
  });

  describe('errors in the form they travel in (formatted by a subgraph or the gateway)', () => {
    it('a coded error is the client\'s, its extensions whole', () => {
      const formatted = { message: 'Not Found', path: ['giftCard'], extensions: { code: 'NOT_FOUND', serviceName: 'billing' } };
      expect(clientError(formatted)).toEqual({ code: 'NOT_FOUND', message: 'Not Found', extensions: { code: 'NOT_FOUND', serviceName: 'billing' } });
      expect(clientError(valueError(['input', 'tz'], 'unknown zone', 'Mars/Base').toGraphQLError().toJSON())).toMatchObject({ code: 'BAD_USER_INPUT' });
    });

    it('an error already hidden, or one without a code, is internal', () => {
      expect(clientError({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } })).toBeUndefined();
      expect(clientError({ message: 'connect ECONNREFUSED' })).toBeUndefined();
      expect(clientError({ message: 'odd', extensions: { code: 42 } })).toBeUndefined();
    });

    it('a GraphQLError rebuilt from a response (a path, no original) is judged by its code alone', () => {
      expect(clientError(new GraphQLError('Internal server error', { path: ['x'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }))).toBeUndefined();
      expect(clientError(new GraphQLError('Gone', { path: ['x'], extensions: { code: 'NOT_FOUND' } }))).toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  it('anything that is not an error is internal', () => {
    expect([clientError(undefined), clientError(null), clientError('boom'), clientError(new Error('boom'))]).toEqual([undefined, undefined, undefined, undefined]);
  });
});
