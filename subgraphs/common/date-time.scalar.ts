import { GraphQLError, GraphQLScalarType } from 'graphql';
import { DateTimeResolver } from 'graphql-scalars';

/** Runs a scalar parser; its refusal becomes a coded BAD_USER_INPUT error instead of an uncoded one. */
function coded<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new GraphQLError(error instanceof Error ? error.message : String(error), { extensions: { code: 'BAD_USER_INPUT' } });
  }
}

/**
 * The graph's one scalar for an instant, in answers and inputs alike (docs/api.md, "Schema style":
 * an instant is named `...At`, a calendar day is a `String` named `...Date`). graphql-scalars'
 * `DateTime` parses; its own parser throws an error without a code, which the subgraph's error
 * mapper must treat as a 500 (format-error.ts), so refusals are coded: a bad date sent straight to
 * /graphql is a 4xx like every other bad input. Its serializer hands back a `Date`; answers carry
 * the ISO string instead, as `DateTimeISO` did, so what a subgraph returns is the same text
 * whether or not it crosses JSON. The name stays `DateTime`: the REST bridge reads it
 * (rest-bridge/coerce-value.ts, router.ts) to give Pydantic's datetime errors.
 */
export const DateTimeScalar = new GraphQLScalarType({
  ...DateTimeResolver.toConfig(),
  description:
    'An instant: a date-time in UTC as RFC 3339 text, such as `2007-12-03T10:15:30.000Z` (answers always give milliseconds and `Z`; an input may give another offset, read as that instant). A calendar day is not a `DateTime` but a `String` `YYYY-MM-DD`: fields holding an instant are named `...At`, those holding a day `...Date`.',
  serialize: (value) => (DateTimeResolver.serialize(value) as Date).toISOString(),
  parseValue: (value) => coded(() => DateTimeResolver.parseValue(value)),
  parseLiteral: (ast, variables) => coded(() => DateTimeResolver.parseLiteral(ast, variables)),
});
