import type { ValidationIssue } from './errors';

const UNPAIRED_SURROGATE = /\p{Cs}/u;

/**
 * The one rule for text, on every edge (REST bridge and /graphql): a string may not hold NUL
 * (PostgreSQL refuses 0x00 in text, which surfaced as a 500) nor a UTF-16 surrogate without its
 * pair (it has no UTF-8 form: stored as is, replaced or refused depending on the path it took).
 */
export function textProblem(value: string): string | null {
  if (value.includes('\u0000')) return 'text must not contain NUL characters';
  // In unicode mode a paired surrogate is one astral code point; only an unpaired one is category Cs.
  if (UNPAIRED_SURROGATE.test(value)) return 'text must not contain unpaired surrogate characters';
  return null;
}

/** Nesting below which text is looked for; deeper values are refused by the depth rule of the edge before this runs. */
const MAX_WALK_DEPTH = 256;

/**
 * Every string in a JSON value (object keys included) that breaks the text rule, as 422
 * `value_error` issues located under `loc` (e.g. `["body"]`, `["query", "name"]`). Iterative, so a
 * deep value cannot overflow the stack; stops at the first `limit` issues.
 */
export function textIssues(value: unknown, loc: (string | number)[], limit = 10): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const stack: { value: unknown; loc: (string | number)[] }[] = [{ value, loc }];
  while (stack.length > 0 && issues.length < limit) {
    const item = stack.pop()!;
    if (typeof item.value === 'string') {
      const reason = textProblem(item.value);
      if (reason) issues.push({ type: 'value_error', loc: item.loc, msg: `Value error, ${reason}`, input: item.value, ctx: { error: reason } });
    } else if (item.value !== null && typeof item.value === 'object' && item.loc.length - loc.length < MAX_WALK_DEPTH) {
      const entries = Array.isArray(item.value) ? item.value.map((v, i) => [i, v] as const) : Object.entries(item.value);
      // Reversed so that issues come out in document order.
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i];
        const childLoc = [...item.loc, key];
        if (typeof key === 'string' && textProblem(key)) {
          const reason = textProblem(key)!;
          issues.push({ type: 'value_error', loc: childLoc, msg: `Value error, ${reason}`, input: key, ctx: { error: reason } });
        }
        stack.push({ value: child, loc: childLoc });
      }
    }
  }
  return issues.slice(0, limit);
}
