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
 * graphql-scalars' `DateTime` for input fields. Its own parser throws an error without a code,
 * which the subgraph's error mapper must treat as a 500 (format-error.ts); with the code, a bad
 * date sent straight to /graphql is a 4xx like every other bad input. Same name, same SDL.
 */
export const DateTimeInput = new GraphQLScalarType({
  ...DateTimeResolver.toConfig(),
  parseValue: (value) => coded(() => DateTimeResolver.parseValue(value)),
  parseLiteral: (ast, variables) => coded(() => DateTimeResolver.parseLiteral(ast, variables)),
});
