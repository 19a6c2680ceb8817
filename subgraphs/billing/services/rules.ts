import { valueError, type ValidationError } from '../../../schema/errors';
import { isEmail, isPhone, Issues, optionalText, type IssueLoc } from '../../common/field-rules';

/** Longest free text (names, bank names, plan names) a billing record keeps. */
export const MAX_NAME = 200;
/** Longest comment or note. */
export const MAX_NOTE = 1000;
/** Longest processor identifier (tokens, fingerprints, account ids). */
export const MAX_REFERENCE = 255;

/** A required text field: trimmed, 1 to `max` characters. */
export function requiredText(issues: Issues, loc: IssueLoc, value: string, max = MAX_NAME): string {
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > max) issues.value(loc, `${loc[loc.length - 1]} must be 1 to ${max} characters`, value);
  return trimmed;
}

/** An optional text field: trimmed, blank is null, at most `max` characters. */
export function optionalString(issues: Issues, loc: IssueLoc, value: string | null | undefined, max = MAX_NAME): string | null {
  const text = optionalText(value) ?? null;
  if (text !== null && text.length > max) issues.value(loc, `${loc[loc.length - 1]} must be at most ${max} characters`, value);
  return text;
}

/** An optional e-mail address, trimmed. */
export function optionalEmail(issues: Issues, loc: IssueLoc, value: string | null | undefined): string | null {
  const text = optionalText(value) ?? null;
  if (text !== null && !isEmail(text)) issues.value(loc, `${loc[loc.length - 1]} must be a valid e-mail address`, value);
  return text;
}

/** An optional phone number, trimmed. */
export function optionalPhone(issues: Issues, loc: IssueLoc, value: string | null | undefined): string | null {
  const text = optionalText(value) ?? null;
  if (text !== null && !isPhone(text)) issues.value(loc, `${loc[loc.length - 1]} must be a phone number, e.g. +1 555 010 0100`, value);
  return text;
}

/**
 * Pydantic's `enum` issue for a value outside `allowed` (compared case-insensitively); the
 * matching allowed value otherwise. Text fields the contract types as strings use it, so any case works.
 */
export function oneOf<T extends string>(issues: Issues, loc: IssueLoc, value: string, allowed: readonly T[]): T | undefined {
  const found = allowed.find((a) => a.toLowerCase() === value.trim().toLowerCase());
  if (found) return found;
  const quoted = allowed.map((a) => `'${a}'`);
  const expected = quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}` : quoted.join('');
  issues.add({ type: 'enum', loc, msg: `Input should be ${expected}`, input: value, ctx: { expected } });
  return undefined;
}

/** A whole number of cents within bounds, with Pydantic's range issues. */
export function cents(issues: Issues, loc: IssueLoc, value: number, min: number, max: number): number {
  if (value < min) issues.add({ type: 'greater_than_equal', loc, msg: `Input should be greater than or equal to ${min}`, input: value, ctx: { ge: min } });
  else if (value > max) issues.add({ type: 'less_than_equal', loc, msg: `Input should be less than or equal to ${max}`, input: value, ctx: { le: max } });
  return value;
}

/** An id pointing into the directory (or billing) that was not found for this tenant: the same answer for unknown and foreign ids. */
export function unknownReference(issues: Issues, loc: IssueLoc, what: string, value: string): void {
  issues.value(loc, `unknown ${what}`, value);
}

/**
 * The caller's Idempotency-Key names a write of another request (another member, card or method):
 * the 422 the edge answers for a key reused with another body, for when the edge no longer holds
 * the key (past its 24 hours). The key itself is not echoed: it is the caller's secret.
 */
export const reusedRequestKey = (): ValidationError => valueError(['header', 'idempotency-key'], 'this key was already used for a different request', null);
