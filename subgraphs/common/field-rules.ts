import { ValidationError, type ValidationIssue } from '../../schema/errors';

/** A location inside a GraphQL argument, e.g. `["input", "timezone"]` (the bridge relocates the head). */
export type IssueLoc = (string | number)[];

/**
 * Collects every problem of one input before throwing, so a 422 lists them all at once as
 * FastAPI does, and nothing is written when any field is bad.
 */
export class Issues {
  readonly list: ValidationIssue[] = [];

  /** A domain rule failure: `value_error`, `Value error, <reason>`, ctx `{error}` (docs/decisions.md, Errors). */
  value(loc: IssueLoc, reason: string, input: unknown): void {
    this.list.push({ type: 'value_error', loc, msg: `Value error, ${reason}`, input, ctx: { error: reason } });
  }

  /** Pydantic's answer to `null` where a string is required. */
  notNullString(loc: IssueLoc): void {
    this.list.push({ type: 'string_type', loc, msg: 'Input should be a valid string', input: null });
  }

  /** Any other ready-made issue (range checks, type errors). */
  add(issue: ValidationIssue): void {
    this.list.push(issue);
  }

  /** Throws the collected issues as one ValidationError; does nothing when there are none. */
  throwIfAny(): void {
    if (this.list.length > 0) throw new ValidationError(this.list);
  }
}

/** Pydantic's integer range issues (`ge` / `le`), the same shape the connection arguments' checks use. */
export function checkIntRange(issues: Issues, loc: IssueLoc, value: number, min: number, max: number): void {
  if (value < min) issues.add({ type: 'greater_than_equal', loc, msg: `Input should be greater than or equal to ${min}`, input: value, ctx: { ge: min } });
  else if (value > max) issues.add({ type: 'less_than_equal', loc, msg: `Input should be less than or equal to ${max}`, input: value, ctx: { le: max } });
}

// Deliberately loose (one @, a dot in the domain, no spaces): full RFC 5322 parsing refuses real addresses more often than it catches typos.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** True for a plausible e-mail address of at most 254 characters (RFC 5321's path limit). */
export const isEmail = (text: string): boolean => text.length <= 254 && EMAIL.test(text);

/** The URL when the text is an absolute http or https URL with a host; null otherwise. */
export function parseHttpUrl(text: string): URL | null {
  if (text.length > 2048 || /\s/.test(text)) return null;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url : null;
  } catch {
    return null;
  }
}

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isIsoDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/**
 * Normalises optional text: trims it, and a blank string clears the field like `null` does.
 * Returns undefined when the field was not sent (partial updates leave it alone).
 */
export function optionalText(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** Escapes `%`, `_` and `\` so user text matches literally inside an ILIKE pattern. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

// Digits with the usual separators, an optional leading + and an optional extension; at least 5 digits overall.
const PHONE = /^\+?[0-9 ().\/-]{5,30}(?:\s*(?:x|ext\.?)\s*\d{1,6})?$/i;

/** True for text that reads as a phone number (international or national notation). */
export const isPhone = (text: string): boolean => PHONE.test(text) && (text.match(/\d/g)?.length ?? 0) >= 5;

/** Longest free text accepted in names and address lines. */
export const MAX_TEXT = 200;

/** True for an ISO 3166-1 alpha-2 region code that ICU knows (`US`, `DE`); case-insensitive. */
export function isCountryCode(text: string): boolean {
  if (!/^[A-Za-z]{2}$/.test(text)) return false;
  const name = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' }).of(text.toUpperCase());
  return name !== undefined && name !== 'Unknown Region';
}
