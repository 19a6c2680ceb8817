import { ValidationError, type ValidationIssue } from '../../../schema/errors';
import type { CreateNoteTemplateInput } from '../inputs/create-note-template.input';
import type { TemplateQuestionInput } from '../inputs/template-question.input';
import { CHOICE_KINDS, QuestionKind } from '../types/question-kind';

type Loc = (string | number)[];

/** Limits of template fields; they bound what a stream may send to a language model too. */
export const TEMPLATE_LIMITS = {
  name: 200,
  description: 2_000,
  label: 500,
  helpText: 1_000,
  option: 200,
  options: 50,
  legacyContent: 20_000,
  questions: 200,
} as const;

/** A question's fields after the rules: trimmed, with defaults applied. */
export interface CleanQuestion {
  kind: QuestionKind;
  label: string;
  helpText: string | null;
  options: string[];
  required: boolean;
  order: number | null;
  isLegacy: boolean;
  legacyContent: string | null;
}

/** Pydantic's length checks on a trimmed string; returns the trimmed text (or null for an absent optional one). */
function text(issues: ValidationIssue[], loc: Loc, value: string | null | undefined, max: number, required: boolean): string | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  if (trimmed.length === 0) {
    // An optional field sent blank means "none"; a required one must say something.
    if (required) issues.push({ type: 'string_too_short', loc, msg: 'String should have at least 1 character', input: value, ctx: { min_length: 1 } });
    return null;
  }
  if (trimmed.length > max) {
    issues.push({ type: 'string_too_long', loc, msg: `String should have at most ${max} characters`, input: value, ctx: { max_length: max } });
  }
  return trimmed;
}

const valueIssue = (loc: Loc, reason: string, input: unknown): ValidationIssue => ({
  type: 'value_error',
  loc,
  msg: `Value error, ${reason}`,
  input,
  ctx: { error: reason },
});

const tooLong = (loc: Loc, input: unknown[], max: number): ValidationIssue => ({
  type: 'too_long',
  loc,
  msg: `List should have at most ${max} items after validation, not ${input.length}`,
  input,
  ctx: { field_type: 'List', max_length: max, actual_length: input.length },
});

function cleanOptions(issues: ValidationIssue[], loc: Loc, kind: QuestionKind, options: string[] | null | undefined): string[] {
  const given = options ?? [];
  if (!CHOICE_KINDS.has(kind)) {
    if (given.length > 0) issues.push(valueIssue(loc, 'options are only allowed for single_choice and multiple_choice questions', given));
    return [];
  }
  if (given.length > TEMPLATE_LIMITS.options) {
    issues.push(tooLong(loc, given, TEMPLATE_LIMITS.options));
    return [];
  }
  const cleaned = given.map((option, i) => text(issues, [...loc, i], option, TEMPLATE_LIMITS.option, true) ?? '');
  if (given.length < 2) issues.push(valueIssue(loc, `${kind} questions need at least 2 options`, given));
  else if (new Set(cleaned.map((o) => o.toLowerCase())).size !== cleaned.length) issues.push(valueIssue(loc, 'options must be unique', given));
  return cleaned;
}

/** Applies the question rules, collecting issues under `loc` (e.g. `["input"]`). */
export function cleanQuestion(issues: ValidationIssue[], loc: Loc, input: TemplateQuestionInput): CleanQuestion {
  const label = text(issues, [...loc, 'label'], input.label, TEMPLATE_LIMITS.label, true) ?? '';
  const helpText = text(issues, [...loc, 'helpText'], input.helpText, TEMPLATE_LIMITS.helpText, false);
  const options = cleanOptions(issues, [...loc, 'options'], input.kind, input.options);
  const isLegacy = input.legacyContent !== null && input.legacyContent !== undefined;
  const legacyContent = isLegacy ? text(issues, [...loc, 'legacyContent'], input.legacyContent, TEMPLATE_LIMITS.legacyContent, true) : null;
  if (isLegacy && input.kind !== QuestionKind.TEXT_AREA) {
    issues.push(valueIssue([...loc, 'legacyContent'], 'legacy questions must be of kind text_area', input.legacyContent));
  }
  const order = input.order ?? null;
  if (order !== null && order < 0) {
    issues.push({ type: 'greater_than_equal', loc: [...loc, 'order'], msg: 'Input should be greater than or equal to 0', input: order, ctx: { ge: 0 } });
  }
  return { kind: input.kind, label, helpText, options, required: input.required ?? false, order, isLegacy, legacyContent };
}

/** Rules of `createNoteTemplate`; throws one ValidationError with every issue. */
export function cleanNewTemplate(input: CreateNoteTemplateInput): { name: string; description: string | null; questions: CleanQuestion[] } {
  const issues: ValidationIssue[] = [];
  const name = text(issues, ['input', 'name'], input.name, TEMPLATE_LIMITS.name, true) ?? '';
  const description = text(issues, ['input', 'description'], input.description, TEMPLATE_LIMITS.description, false);
  const given = input.questions ?? [];
  let questions: CleanQuestion[] = [];
  if (given.length > TEMPLATE_LIMITS.questions) issues.push(tooLong(['input', 'questions'], given, TEMPLATE_LIMITS.questions));
  else questions = given.map((q, i) => cleanQuestion(issues, ['input', 'questions', i], q));
  questions.forEach((q, i) => {
    // Initial questions come in order; a position would contradict the list's own.
    if (q.order !== null && q.order !== i) issues.push(valueIssue(['input', 'questions', i, 'order'], 'initial questions take their position from the list; leave order out', q.order));
  });
  if (issues.length) throw new ValidationError(issues);
  return { name, description, questions };
}

/** Rules of `addTemplateQuestion` that need the template: the position must be within 0..count. */
export function checkPosition(order: number | null, count: number): number {
  if (order === null) return count;
  if (order > count) {
    throw new ValidationError([
      { type: 'less_than_equal', loc: ['input', 'order'], msg: `Input should be less than or equal to ${count}`, input: order, ctx: { le: count } },
    ]);
  }
  return order;
}
