import type { ValidationIssue } from '../../../schema/errors';
import { Issues, type IssueLoc } from '../../common/field-rules';

/** Pydantic v2's fixed messages for the type errors a query can have (docs/decisions.md, Errors). */
const TYPE_MESSAGES = {
  dict_type: 'Input should be a valid dictionary',
  list_type: 'Input should be a valid list',
  string_type: 'Input should be a valid string',
  int_type: 'Input should be a valid integer',
  missing: 'Field required',
  extra_forbidden: 'Extra inputs are not permitted',
} as const;

/** `a`, `'a' or 'b'`, `'a', 'b' or 'c'`: how Pydantic lists an enum's values. */
export function expectedList(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}` : quoted.join('');
}

/** The issues of one query, in the order they are found; a thin layer over the shared collector. */
export class QueryIssues extends Issues {
  /** One of Pydantic's fixed-message errors. */
  type(type: keyof typeof TYPE_MESSAGES, loc: IssueLoc, input: unknown): undefined {
    this.add({ type, loc, msg: TYPE_MESSAGES[type], input });
    return undefined;
  }

  /** Pydantic's enum error, e.g. for a granularity or a sort direction. */
  enumeration(loc: IssueLoc, values: readonly string[], input: unknown): undefined {
    const expected = expectedList(values);
    this.add({ type: 'enum', loc, msg: `Input should be ${expected}`, input, ctx: { expected } });
    return undefined;
  }

  /** Pydantic's `too_long` for a list over its maximum length. */
  tooLong(loc: IssueLoc, max: number, input: unknown[]): undefined {
    this.add({ type: 'too_long', loc, msg: `List should have at most ${max} items after validation, not ${input.length}`, input, ctx: { field_type: 'List', max_length: max, actual_length: input.length } });
    return undefined;
  }

  /** A domain rule failure; returns undefined so callers can `return issues.reject(...)`. */
  reject(loc: IssueLoc, reason: string, input: unknown): undefined {
    this.value(loc, reason, input);
    return undefined;
  }

  /** The collected issues. */
  get all(): ValidationIssue[] {
    return this.list;
  }
}

/** A list of strings (each element checked), or undefined with the issues recorded. */
export function stringList(issues: QueryIssues, loc: IssueLoc, value: unknown, max: number): string[] | undefined {
  if (!Array.isArray(value)) return issues.type('list_type', loc, value);
  if (value.length > max) return issues.tooLong(loc, max, value);
  let ok = true;
  value.forEach((item, i) => {
    if (typeof item !== 'string') ok = Boolean(issues.type('string_type', [...loc, i], item));
  });
  return ok ? (value as string[]) : undefined;
}
