import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { ApolloServerPlugin } from '@apollo/server';
import type { FormattedExecutionResult, ValidationRule } from 'graphql';
import type { GraphQLLimits } from '../config-readers';
import { maxListDepthRule } from './list-depth-rule';

/** The code of an answer refused for its size. */
export const RESPONSE_TOO_LARGE = 'RESPONSE_TOO_LARGE';

/** What Apollo Server (and the event stream handlers) take from GraphQL Armor for these limits. */
export interface ArmorProtection {
  validationRules: ValidationRule[];
  plugins: ApolloServerPlugin[];
}

/**
 * GraphQL Armor's depth, alias, directive and cost rules, and its suggestion masking when field
 * suggestions are off; with them the list nesting rule (list-depth-rule.ts), which Armor lacks. Armor's Apollo rules report through the validation context, so Apollo
 * answers them as `GRAPHQL_VALIDATION_FAILED` (400). Tokens are left to graphql-js's own parser
 * (`parseTokenLimit`): Armor's Apollo token plugin rethrows every unexpected request error as a
 * validation error carrying its message, which would show internal errors to clients.
 */
export function armorProtection(limits: GraphQLLimits): ArmorProtection {
  const { validationRules, plugins } = new ApolloArmor({
    maxDepth: { n: limits.maxDepth },
    maxAliases: { n: limits.maxAliases },
    maxDirectives: { n: limits.maxDirectives },
    costLimit: { maxCost: limits.maxCost },
    maxTokens: { enabled: false },
    blockFieldSuggestion: { enabled: !limits.fieldSuggestions },
  }).protect();
  return { validationRules: [...(validationRules ?? []), maxListDepthRule(limits.maxListDepth)], plugins: (plugins ?? []) as ApolloServerPlugin[] };
}

/** graphql-js parse options that stop lexing past the token limit (a `GRAPHQL_PARSE_FAILED` on /graphql). */
export function parseTokenLimit(limits: GraphQLLimits): { maxTokens: number } {
  return { maxTokens: limits.maxTokens };
}

/** Removes `Did you mean ...?` from a validation message, as Armor does on /graphql, unless suggestions are on. */
export function withoutSuggestions(limits: GraphQLLimits, message: string): string {
  return limits.fieldSuggestions ? message : message.replace(/ ?Did you mean ".+"\?/g, '').trim();
}

/**
 * The response cap of both surfaces (GRAPHQL_MAX_RESPONSE_BYTES): the UTF-8 size of `json` when it
 * is over `maxBytes`, else null. `/graphql` asks it of the answer Apollo Server is about to send
 * (`cappedStringify`), the REST bridge's operation runner of an operation's data (operation-runner.ts).
 */
export function bytesOverCap(json: string, maxBytes: number): number | null {
  // A UTF-16 unit is at most 3 UTF-8 bytes: the exact count is needed only near the cap.
  if (json.length * 3 <= maxBytes) return null;
  const bytes = Buffer.byteLength(json);
  return bytes <= maxBytes ? null : bytes;
}

/** What an answer over the cap says, on either surface. */
export function responseTooLargeMessage(maxBytes: number): string {
  return `The response would be larger than ${maxBytes} bytes; ask for fewer objects or fields`;
}

/**
 * Apollo Server's `stringifyResult` with the response-size backstop: an answer whose JSON is over
 * the cap is replaced by one error. Depth, list nesting and cost keep such answers from being
 * built in the first place; this bounds what leaves the process when they do not.
 */
export function cappedStringify(maxBytes: number, onRefused: (bytes: number) => void): (value: FormattedExecutionResult) => string {
  return (value) => {
    const json = JSON.stringify(value);
    const bytes = bytesOverCap(json, maxBytes);
    if (bytes === null) return json;
    onRefused(bytes);
    return JSON.stringify({ data: null, errors: [{ message: responseTooLargeMessage(maxBytes), extensions: { code: RESPONSE_TOO_LARGE, maxBytes } }] });
  };
}
