import type { ValidationIssue } from '../../../schema/errors';
import { Issues, optionalText, type IssueLoc } from '../../common/field-rules';
import { checkStoredJsonSize } from '../../common/free-form-limits';

/** The issue collector shared with the other subgraphs (subgraphs/common/field-rules.ts). */
export { Issues };
/** Where a value sits, GraphQL-argument first (`["input", "name"]`); the REST bridge rewrites the head. */
export type Loc = IssueLoc;

/** Longest display name accepted anywhere in analytics. */
export const MAX_NAME_LENGTH = 200;
/** Longest free text (descriptions, URLs) accepted. */
export const MAX_TEXT_LENGTH = 2000;
/** Longest opaque reference (ids of other subgraphs and systems) accepted. */
export const MAX_REFERENCE_LENGTH = 200;

const TYPE_MESSAGES = { string_type: 'a valid string', bool_type: 'a valid boolean', dict_type: 'a valid dictionary' } as const;

/** Pydantic's own type error, for a null (or a wrong JSON type) where the field takes none. */
export function typeIssue(loc: Loc, type: keyof typeof TYPE_MESSAGES, input: unknown): ValidationIssue {
  return { type, loc, msg: `Input should be ${TYPE_MESSAGES[type]}`, input };
}

/** A required display name: a string with something besides blanks, at most 200 characters; returned trimmed. */
export function checkName(issues: Issues, loc: Loc, value: unknown): string | undefined {
  if (typeof value !== 'string') return void issues.add(typeIssue(loc, 'string_type', value));
  const name = value.trim();
  if (!name) return void issues.value(loc, 'name must not be empty', value);
  if (name.length > MAX_NAME_LENGTH) return void issues.value(loc, `name must be at most ${MAX_NAME_LENGTH} characters`, value);
  return name;
}

/** An optional text: null stays null, blank becomes null, longer than `max` is refused. */
export function checkOptionalText(issues: Issues, loc: Loc, value: string | null | undefined, max: number): string | null | undefined {
  const text = optionalText(value);
  if (text && text.length > max) return void issues.value(loc, `must be at most ${max} characters`, value);
  return text;
}

/**
 * A JSON document stored as the sender wrote it (a dashboard layout, a widget query): bounded in
 * size (MAX_STORED_JSON_BYTES), so that a list of them stays a bounded answer.
 */
export const checkStoredJson = checkStoredJsonSize;

/** True for a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
