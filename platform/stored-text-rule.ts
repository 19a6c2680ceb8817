import {
  getNamedType,
  getNullableType,
  isInputObjectType,
  isListType,
  isScalarType,
  type GraphQLFieldResolver,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { Extensions } from 'type-graphql';
import { ValidationError, type ValidationIssue } from '../schema/errors';
import { CARD_NUMBER_REASON, containsCardNumber, numberIsCardNumber } from '../schema/card-number';

/** Where in the input an issue sits, as ValidationIssue spells it. */
type IssueLoc = ValidationIssue['loc'];

/** Why an input field is not free text, and so not read by the card number rule. */
export type NotFreeTextReason = 'processor-issued' | 'binary';

/** The `extensions` key that `NotFreeText` sets on an input field. */
const EXTENSION = 'notFreeText';
/**
 * Scalars that hold no free text: numbers, booleans, and `ID`, the graph's identifiers (random
 * UUIDs: one in about 400 has digit groups that pass Luhn once its letters split them, and was
 * refused as a card number). An `ID` that is not a UUID is read on its own (`idIssues`).
 */
const NOT_TEXT = new Set(['Int', 'Float', 'Boolean', 'ID']);
/** Our own identifiers: canonical UUIDs, the only `ID` values the rule never reads. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Most issues one mutation reports; the first few locate the problem. */
const MAX_ISSUES = 10;
/** Deepest JSON walked; the edges refuse deeper bodies before a subgraph sees them. */
const MAX_DEPTH = 128;

/**
 * Marks an input field that holds no free text (an identifier issued by the payment processor,
 * base64 bytes), so the card number rule does not read it. Every other string of a mutation's
 * arguments is read, so a new free-text field is covered without anyone remembering to.
 */
export const NotFreeText = (reason: NotFreeTextReason): MethodDecorator & PropertyDecorator => Extensions({ [EXTENSION]: reason });

/** `Type.field` of every input field marked `NotFreeText` in a type-graphql schema (extensions do not survive the SDL). */
export function notFreeTextFields(schema: GraphQLSchema): Set<string> {
  const fields = new Set<string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isInputObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) if (field.extensions?.[EXTENSION]) fields.add(`${type.name}.${field.name}`);
  }
  return fields;
}

/** The card number issue at `loc`; the text is never echoed (`input` stays out). */
const cardIssue = (loc: IssueLoc): ValidationIssue => ({ type: 'value_error', loc, msg: `Value error, ${CARD_NUMBER_REASON}`, ctx: { error: CARD_NUMBER_REASON } });

/**
 * Card numbers in free-form JSON: every string, every object key, integers, and a list's strings
 * read joined by spaces too (a number split across elements, `["4111 1111", "1111 1111"]`, is
 * found at the list). Iterative, so deep values cannot overflow the stack.
 */
function jsonIssues(value: unknown, loc: IssueLoc, issues: ValidationIssue[]): void {
  const stack: { value: unknown; loc: IssueLoc }[] = [{ value, loc }];
  while (stack.length > 0 && issues.length < MAX_ISSUES) {
    const item = stack.pop()!;
    if (typeof item.value === 'string') {
      if (containsCardNumber(item.value)) issues.push(cardIssue(item.loc));
    } else if (typeof item.value === 'number') {
      if (numberIsCardNumber(item.value)) issues.push(cardIssue(item.loc));
    } else if (Array.isArray(item.value)) {
      if (listSplitsCardNumber(item.value)) issues.push(cardIssue(item.loc));
      else if (item.loc.length - loc.length < MAX_DEPTH) item.value.forEach((child, i) => stack.push({ value: child, loc: [...item.loc, i] }));
    } else if (item.value !== null && typeof item.value === 'object' && !(item.value instanceof Date) && item.loc.length - loc.length < MAX_DEPTH) {
      for (const [key, child] of Object.entries(item.value)) {
        // A key is located by its map: the key itself is the text that must not be echoed.
        if (containsCardNumber(key)) issues.push(cardIssue(item.loc));
        else stack.push({ value: child, loc: [...item.loc, key] });
      }
    }
  }
}

/** A list whose strings and integers, read as one text, hold a card number (one element alone, or split across several). */
function listSplitsCardNumber(list: unknown[]): boolean {
  const parts = list.filter((v) => typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v))).map(String);
  return parts.length > 0 && containsCardNumber(parts.join(' '));
}

/** Card numbers in one argument value of the given GraphQL input type; fields in `exempt` are skipped. */
function valueIssues(value: unknown, type: GraphQLInputType, loc: IssueLoc, exempt: Set<string>, issues: ValidationIssue[], depth = 0): void {
  if (value === null || value === undefined || issues.length >= MAX_ISSUES || depth > MAX_DEPTH) return;
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    if (!Array.isArray(value)) return valueIssues(value, nullable.ofType, loc, exempt, issues, depth + 1);
    if (isScalarType(getNamedType(nullable)) && !NOT_TEXT.has(getNamedType(nullable).name) && listSplitsCardNumber(value)) {
      issues.push(cardIssue(loc));
      return;
    }
    value.forEach((item, i) => valueIssues(item, nullable.ofType, [...loc, i], exempt, issues, depth + 1));
  } else if (isInputObjectType(nullable)) {
    if (typeof value !== 'object') return;
    const fields = nullable.getFields();
    for (const [name, child] of Object.entries(value)) {
      if (fields[name] && !exempt.has(`${nullable.name}.${name}`)) valueIssues(child, fields[name].type, [...loc, name], exempt, issues, depth + 1);
    }
  } else if (isScalarType(nullable)) {
    // String and custom scalars (JSON): enums and these scalars hold no text.
    if (!NOT_TEXT.has(nullable.name)) jsonIssues(value, loc, issues);
    // Ids issued elsewhere (a partner's location id, an ad platform's) are typed ID but stored as sent.
    else if (nullable.name === 'ID' && typeof value === 'string' && !UUID.test(value) && containsCardNumber(value)) issues.push(cardIssue(loc));
  }
}

/**
 * The card number rule as a resolver wrapper for every mutation of a subgraph (both surfaces reach
 * the subgraphs through it): any argument string (object keys and list elements of JSON included)
 * holding a Luhn-valid 13-19 digit sequence is a 422 `value_error` naming the field, before the
 * resolver runs, so nothing is stored and nothing echoed. Fields marked `NotFreeText` are skipped.
 */
export function refuseCardNumbers<S, C>(resolve: GraphQLFieldResolver<S, C>, exempt: Set<string>): GraphQLFieldResolver<S, C> {
  return (source, args, context, info) => {
    const issues: ValidationIssue[] = [];
    for (const arg of info.parentType.getFields()[info.fieldName]?.args ?? []) valueIssues(args[arg.name], arg.type, [arg.name], exempt, issues);
    if (issues.length > 0) throw new ValidationError(issues.slice(0, MAX_ISSUES));
    return resolve(source, args, context, info);
  };
}
