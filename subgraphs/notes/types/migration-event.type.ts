import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { QuestionKind } from './question-kind';

/** The `type` of a migration event (contract part 4.9). */
export enum MigrationEventKind {
  QUESTION = 'question',
  DONE = 'done',
  ERROR = 'error',
}
registerEnumType(MigrationEventKind, {
  name: 'MigrationEventType',
  description: 'What a question-migration event carries',
  valuesConfig: {
    QUESTION: { description: 'One suggested question: `index` and `question` are set' },
    DONE: { description: 'Generation complete: `count` is set; the stream ends' },
    ERROR: { description: 'Generation failed: `message` is set; the stream ends' },
  },
});

/** A structured question proposed to replace a legacy one; nothing is stored. */
@ObjectType('SuggestedQuestion', { description: 'A structured question proposed to replace a legacy text-area question', simpleResolvers: true })
export class SuggestedQuestionType {
  @Field(() => QuestionKind)
  kind!: QuestionKind;

  @Field()
  label!: string;

  @Field(() => String, { nullable: true })
  helpText!: string | null;

  @Field(() => [String], { description: 'Answers to pick from (choice kinds only; empty otherwise)' })
  options!: string[];

  @Field()
  required!: boolean;
}

/**
 * One event of the `migrateTemplateQuestion` stream; which fields are set depends on `type`.
 * Plain properties with no middleware: `simpleResolvers` spares a wrapper call per field per event.
 */
@ObjectType('QuestionMigrationEvent', { description: 'One event of a question migration stream', simpleResolvers: true })
export class QuestionMigrationEventType {
  @Field(() => MigrationEventKind)
  type!: MigrationEventKind;

  @Field(() => Int, { nullable: true, description: 'Position of the suggestion, from 0 (question events)' })
  index?: number;

  @Field(() => SuggestedQuestionType, { nullable: true, description: 'The suggestion (question events)' })
  question?: SuggestedQuestionType;

  @Field(() => Int, { nullable: true, description: 'How many suggestions were sent (done events)' })
  count?: number;

  @Field(() => String, { nullable: true, description: 'What went wrong, safe to show (error events)' })
  message?: string;
}
