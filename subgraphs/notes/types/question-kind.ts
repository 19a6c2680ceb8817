import { registerEnumType } from 'type-graphql';

/** What a template question asks for: SCREAMING_SNAKE_CASE on the graph; the values (stored, and REST's spelling) lower case. */
export enum QuestionKind {
  TEXT = 'text',
  TEXT_AREA = 'text_area',
  NUMBER = 'number',
  SCALE = 'scale',
  YES_NO = 'yes_no',
  SINGLE_CHOICE = 'single_choice',
  MULTIPLE_CHOICE = 'multiple_choice',
  DATE = 'date',
}
registerEnumType(QuestionKind, {
  name: 'QuestionKind',
  description: 'Kind of a template question',
  valuesConfig: {
    TEXT_AREA: { description: 'Free text over several lines; legacy questions of an earlier form migration are of this kind' },
    SCALE: { description: 'A rating on a numeric scale, such as 0 to 10' },
    SINGLE_CHOICE: { description: 'One of `options`' },
    MULTIPLE_CHOICE: { description: 'Any of `options`' },
  },
});

/** Kinds whose answers are picked from `options`. */
export const CHOICE_KINDS: ReadonlySet<QuestionKind> = new Set([QuestionKind.SINGLE_CHOICE, QuestionKind.MULTIPLE_CHOICE]);

/** Every kind, for database checks and validation messages. */
export const QUESTION_KINDS: readonly QuestionKind[] = Object.values(QuestionKind);
