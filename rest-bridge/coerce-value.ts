import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLInputType,
  GraphQLScalarType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
} from 'graphql';
import type { ValidationIssue } from '../schema/errors';
import { textIssues } from '../schema/text-rule';
import { graphName, restSpellings } from './enum-spelling';

/** Where a value sits in the request, FastAPI style: `["query", "page"]`, `["body", "tags", 0]`. */
export type Loc = (string | number)[];

/** Pydantic v2's fixed messages for the error types this layer emits (docs/decisions.md, Errors). */
const MESSAGES = {
  missing: 'Field required',
  extra_forbidden: 'Extra inputs are not permitted',
  model_attributes_type: 'Input should be a valid dictionary or object to extract fields from',
  int_parsing: 'Input should be a valid integer, unable to parse string as an integer',
  int_type: 'Input should be a valid integer',
  int_from_float: 'Input should be a valid integer, got a number with a fractional part',
  float_parsing: 'Input should be a valid number, unable to parse string as a number',
  float_type: 'Input should be a valid number',
  bool_parsing: 'Input should be a valid boolean, unable to interpret input',
  bool_type: 'Input should be a valid boolean',
  string_type: 'Input should be a valid string',
  list_type: 'Input should be a valid list',
  dict_type: 'Input should be a valid dictionary',
  datetime_type: 'Input should be a valid datetime',
} as const;

/** Records one fixed-message issue; returns undefined so callers can `return fail(...)`. */
export function fail(issues: ValidationIssue[], type: keyof typeof MESSAGES, loc: Loc, input: unknown): undefined {
  issues.push({ type, loc, msg: MESSAGES[type], input });
  return undefined;
}

/** A JSON object (not an array, not null): what a model or a nested input object must receive. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Digits with single underscores between them, as Python writes `1_000`.
const DIGITS = String.raw`\d+(?:_\d+)*`;
// Pydantic's str -> int also takes a zero fraction: `3.0`, but not `3.` (pydantic-core str_as_int).
const INT_TEXT = new RegExp(`^[+-]?${DIGITS}(?:\\.0+)?$`);
// Rust's f64 grammar, which Pydantic uses; inf and nan are left out because JSON cannot carry them on.
const FLOAT_TEXT = new RegExp(`^[+-]?(?:${DIGITS}\\.?(?:${DIGITS})?|\\.${DIGITS})(?:[eE][+-]?${DIGITS})?$`);
const TRUE_TEXT = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_TEXT = new Set(['0', 'off', 'f', 'false', 'n', 'no']);
const INT32_MAX = 2147483647;
const INT32_MIN = -2147483648;

/** The integer scalars and their bounds: GraphQL's Int is 32-bit, graphql-scalars' SafeInt (money, docs/api.md) holds 2^53 - 1. */
const INT_BOUNDS: Record<string, { min: number; max: number }> = {
  Int: { min: INT32_MIN, max: INT32_MAX },
  SafeInt: { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER },
};

/** Pydantic has no integer limit, so the scalar's bounds are said the way a `ge`/`le` constraint would. */
function inBounds(type: GraphQLScalarType, n: number, loc: Loc, input: unknown, issues: ValidationIssue[]): number | undefined {
  const { min, max } = INT_BOUNDS[type.name];
  if (n > max) {
    issues.push({ type: 'less_than_equal', loc, msg: `Input should be less than or equal to ${max}`, input, ctx: { le: max } });
    return undefined;
  }
  if (n < min) {
    issues.push({ type: 'greater_than_equal', loc, msg: `Input should be greater than or equal to ${min}`, input, ctx: { ge: min } });
    return undefined;
  }
  return n;
}

/** A REST spelling (or the graph name) of one of the enum's values -> its graph name; else an `enum` issue listing REST's spellings. */
function coerceEnum(type: GraphQLEnumType, value: unknown, loc: Loc, issues: ValidationIssue[]): string | undefined {
  const name = typeof value === 'string' ? graphName(type, value) : undefined;
  if (name !== undefined) return name;
  const quoted = restSpellings(type).map((n) => `'${n}'`);
  const expected = quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}` : quoted.join('');
  issues.push({ type: 'enum', loc, msg: `Input should be ${expected}`, input: value, ctx: { expected } });
  return undefined;
}

/**
 * Why Pydantic refuses a datetime string: it retries the text as a date and reports that failure
 * (pydantic-core `datetime_from_date`, speedate `Date::parse_bytes`). Undefined means a valid date.
 */
function dateReason(text: string): string | undefined {
  const digits = (from: number) => /^\d\d$/.test(text.slice(from, from + 2));
  if (Buffer.byteLength(text, 'utf8') < 10) return 'input is too short';
  if (!/^\d{4}$/.test(text.slice(0, 4))) return 'invalid character in year';
  if (text[4] !== '-') return 'invalid date separator, expected `-`';
  if (!digits(5)) return 'invalid character in month';
  if (text[7] !== '-') return 'invalid date separator, expected `-`';
  if (!digits(8)) return 'invalid character in day';
  const [year, month, day] = [text.slice(0, 4), text.slice(5, 7), text.slice(8, 10)].map(Number);
  if (month < 1 || month > 12) return 'month value is outside expected range of 1-12';
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const maxDay = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  if (day < 1 || day > maxDay) return 'day value is outside expected range';
  return text.length > 10 ? 'unexpected extra characters at the end of the input' : undefined;
}

/** Custom scalars are checked by their own parseValue; the variable keeps the external form. */
function coerceCustom(type: GraphQLScalarType, value: unknown, loc: Loc, issues: ValidationIssue[]): unknown {
  // Only a non-null type gets here with null, and the JSON scalars' parseValue would let it through.
  if (value === null) return fail(issues, type.name === 'DateTime' ? 'datetime_type' : 'dict_type', loc, value);
  if (type.name === 'DateTime') {
    if (typeof value !== 'string') return fail(issues, 'datetime_type', loc, value);
    try {
      type.parseValue(value);
      return value;
    } catch {
      const reason = dateReason(value);
      // Pydantic reads a bare date as midnight; the scalar wants a full date-time, so give it one.
      if (reason === undefined) return `${value}T00:00:00Z`;
      issues.push({ type: 'datetime_from_date_parsing', loc, msg: `Input should be a valid datetime or date, ${reason}`, input: value, ctx: { error: reason } });
      return undefined;
    }
  }
  try {
    type.parseValue(value);
    return value;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    issues.push({ type: 'value_error', loc, msg: `Value error, ${reason}`, input: value, ctx: { error: reason } });
    return undefined;
  }
}

/** Text from the path, the query string or a header, Pydantic's lax str -> scalar rules. */
function coerceTextScalar(type: GraphQLScalarType, raw: string, loc: Loc, issues: ValidationIssue[]): unknown {
  switch (type.name) {
    case 'Int':
    case 'SafeInt': {
      const text = raw.trim();
      return INT_TEXT.test(text) ? inBounds(type, Number(text.replace(/_/g, '')), loc, raw, issues) : fail(issues, 'int_parsing', loc, raw);
    }
    case 'Float': {
      const text = raw.trim();
      const n = Number(text.replace(/_/g, ''));
      return FLOAT_TEXT.test(text) && Number.isFinite(n) ? n : fail(issues, 'float_parsing', loc, raw);
    }
    case 'Boolean': {
      const text = raw.toLowerCase();
      if (TRUE_TEXT.has(text)) return true;
      return FALSE_TEXT.has(text) ? false : fail(issues, 'bool_parsing', loc, raw);
    }
    case 'String':
    case 'ID':
      return raw;
    default:
      return coerceCustom(type, raw, loc, issues);
  }
}

/**
 * Coerces a text parameter to a variable's GraphQL type. A list type takes every repeated key
 * (`?ids=a&ids=b`); any other type takes the last one, as Starlette's `query_params[key]` does.
 */
export function coerceText(type: GraphQLInputType, raw: string | string[], loc: Loc, issues: ValidationIssue[]): unknown {
  const nullable = isNonNullType(type) ? type.ofType : type;
  if (isListType(nullable)) {
    const items = Array.isArray(raw) ? raw : [raw];
    return items.map((item, i) => coerceText(nullable.ofType, item, [...loc, i], issues));
  }
  const text = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  if (refusedText(text, loc, issues)) return undefined;
  if (isEnumType(nullable)) return coerceEnum(nullable, text, loc, issues);
  if (isInputObjectType(nullable)) throw new Error(`${nullable.name} is an input object and cannot come from ${loc[0]}`);
  return coerceTextScalar(nullable, text, loc, issues);
}

/** Pushes the text rule's issues (NUL, unpaired surrogates) for every string in `value`; true when it broke it. */
function refusedText(value: unknown, loc: Loc, issues: ValidationIssue[]): boolean {
  const found = textIssues(value, loc);
  issues.push(...found);
  return found.length > 0;
}

/**
 * JSON body scalars in Pydantic v2's lax mode, as FastAPI validates bodies: numeric strings become
 * numbers (the query string's rules), booleans take their words and 0/1, integers take whole
 * floats and booleans; a number is never a string (`string_type`).
 */
function coerceJsonScalar(type: GraphQLScalarType, value: unknown, loc: Loc, issues: ValidationIssue[]): unknown {
  if (refusedText(value, loc, issues)) return undefined;
  switch (type.name) {
    case 'Int':
    case 'SafeInt':
      if (typeof value === 'string') return coerceTextScalar(type, value, loc, issues);
      if (typeof value === 'boolean') return Number(value);
      if (typeof value !== 'number') return fail(issues, 'int_type', loc, value);
      return Number.isInteger(value) ? inBounds(type, value, loc, value, issues) : fail(issues, 'int_from_float', loc, value);
    case 'Float':
      if (typeof value === 'string') return coerceTextScalar(type, value, loc, issues);
      if (typeof value === 'boolean') return Number(value);
      return typeof value === 'number' ? value : fail(issues, 'float_type', loc, value);
    case 'Boolean':
      if (typeof value === 'string') return coerceTextScalar(type, value, loc, issues);
      if (typeof value === 'number') return value === 0 || value === 1 ? value === 1 : fail(issues, 'bool_parsing', loc, value);
      return typeof value === 'boolean' ? value : fail(issues, 'bool_type', loc, value);
    case 'String':
    case 'ID':
      return typeof value === 'string' ? value : fail(issues, 'string_type', loc, value);
    default:
      return coerceCustom(type, value, loc, issues);
  }
}

/**
 * Pydantic model semantics for an input object: declared fields in order (absent required ones
 * are `missing` with the received object as input), then every unknown key as `extra_forbidden`.
 */
function coerceObject(type: GraphQLInputObjectType, value: unknown, loc: Loc, issues: ValidationIssue[]): unknown {
  if (!isPlainObject(value)) return fail(issues, 'dict_type', loc, value);
  const fields = type.getFields();
  const out: Record<string, unknown> = {};
  for (const field of Object.values(fields)) {
    if (!Object.hasOwn(value, field.name)) {
      if (isNonNullType(field.type) && field.defaultValue === undefined) fail(issues, 'missing', [...loc, field.name], value);
      continue;
    }
    out[field.name] = coerceJson(field.type, value[field.name], [...loc, field.name], issues);
  }
  for (const [key, extra] of Object.entries(value)) {
    if (!Object.hasOwn(fields, key)) fail(issues, 'extra_forbidden', [...loc, key], extra);
  }
  return out;
}

/**
 * Checks a parsed JSON value against a GraphQL input type, pushing Pydantic-shaped issues.
 * `null` passes only for a nullable type; for a non-null one it gets that type's own error.
 */
export function coerceJson(type: GraphQLInputType, value: unknown, loc: Loc, issues: ValidationIssue[]): unknown {
  if (!isNonNullType(type) && value === null) return null;
  const nullable = isNonNullType(type) ? type.ofType : type;
  if (isListType(nullable)) {
    if (!Array.isArray(value)) return fail(issues, 'list_type', loc, value);
    return value.map((item, i) => coerceJson(nullable.ofType, item, [...loc, i], issues));
  }
  if (isInputObjectType(nullable)) return coerceObject(nullable, value, loc, issues);
  if (isEnumType(nullable)) return coerceEnum(nullable, value, loc, issues);
  return coerceJsonScalar(nullable, value, loc, issues);
}
