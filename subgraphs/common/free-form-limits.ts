import type { IssueLoc, Issues } from './field-rules';

/**
 * Bounds for free-form maps a request stores (lead fields, payment method metadata), as Stripe
 * bounds metadata: at most 50 keys, keys at most 40 characters, values at most 500.
 */
export const FREE_FORM_LIMITS = { maxKeys: 50, maxKeyLength: 40, maxValueLength: 500 } as const;

/** Largest stored JSON document (a dashboard layout, a widget query), serialised as UTF-8. */
export const MAX_STORED_JSON_BYTES = 64 * 1024;

/** What a free-form map's values may be: strings only (metadata, as Stripe), or any JSON scalar (lead fields). */
export type FreeFormValues = 'strings' | 'scalars';

/** Pydantic's type issue for a value that is not a JSON object. */
const dictIssue = (loc: IssueLoc, input: unknown) => ({ type: 'dict_type', loc, msg: 'Input should be a valid dictionary', input });

/**
 * Checks a free-form map against FREE_FORM_LIMITS and returns it, or undefined after adding its
 * issues (named at the map, or at the key whose value is wrong). An over-long key is named by its
 * index, not echoed: keys are the sender's text. Values are never echoed either.
 */
export function checkFreeFormMap(issues: Issues, loc: IssueLoc, value: unknown, values: FreeFormValues): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    issues.add(dictIssue(loc, value));
    return undefined;
  }
  const before = issues.list.length;
  const entries = Object.entries(value);
  const { maxKeys, maxKeyLength, maxValueLength } = FREE_FORM_LIMITS;
  if (entries.length > maxKeys) {
    issues.value(loc, `at most ${maxKeys} keys are accepted (got ${entries.length})`, null);
    return undefined;
  }
  const allowed = values === 'strings' ? 'strings' : 'strings, numbers, booleans or null';
  entries.forEach(([key, inner], index) => {
    if (key.length === 0 || key.length > maxKeyLength) issues.value(loc, `keys must be 1 to ${maxKeyLength} characters (key ${index + 1} is ${key.length})`, null);
    else if (typeof inner === 'string') {
      if (inner.length > maxValueLength) issues.value([...loc, key], `values must be at most ${maxValueLength} characters`, null);
    } else if (values === 'strings' || (inner !== null && typeof inner === 'object')) {
      issues.value([...loc, key], `values must be ${allowed}`, null);
    }
  });
  return issues.list.length === before ? (value as Record<string, unknown>) : undefined;
}

/**
 * Refuses a stored JSON value whose serialised form is over `max` bytes (default
 * MAX_STORED_JSON_BYTES); true when it fits. The value is not echoed.
 */
export function checkStoredJsonSize(issues: Issues, loc: IssueLoc, value: unknown, max = MAX_STORED_JSON_BYTES): boolean {
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  if (bytes <= max) return true;
  issues.value(loc, `must be at most ${max} bytes of JSON (got ${bytes})`, null);
  return false;
}
