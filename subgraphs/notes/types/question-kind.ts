import { registerEnumType } from 'type-graphql';

/** What a template question asks for; values are the lower-case names clients send and receive. */
export enum QuestionKind {
  text = 'text',
  text_area = 'text_area',
  number = 'number',
  scale = 'scale',
  yes_no = 'yes_no',
  single_choice = 'single_choice',
  multiple_choice = 'multiple_choice',
  date = 'date',
}
registerEnumType(QuestionKind, {
  name: 'QuestionKind',
  description: 'Kind of a template question',
  valuesConfig: {
    text_area: { description: 'Free text over several lines; legacy questions of an earlier form migration are of this kind' },
    scale: { description: 'A rating on a numeric scale, such as 0 to 10' },
    single_choice: { description: 'One of `options`' },
    multiple_choice: { description: 'Any of `options`' },
  },
});

/** Kinds whose answers are picked from `options`. */
export const CHOICE_KINDS: ReadonlySet<QuestionKind> = new Set([QuestionKind.single_choice, QuestionKind.multiple_choice]);

/** Every kind, for database checks and validation messages. */
export const QUESTION_KINDS: readonly QuestionKind[] = Object.values(QuestionKind);
