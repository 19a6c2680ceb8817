import { DateTimeScalar } from '../../common/date-time.scalar';
import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql';
import { ConnectionArgs, ConnectionType } from '../../common/connection';
import { SortDirection } from '../../common/pagination';
import { QuestionKind } from './question-kind';

/** One question of a template, as clients read it. */
@ObjectType('TemplateQuestion', { description: 'A question of a note template', simpleResolvers: true })
export class TemplateQuestionType {
  @Field(() => ID)
  id!: string;

  @Field(() => ID, { description: 'The template it belongs to' })
  templateId!: string;

  @Field(() => QuestionKind)
  kind!: QuestionKind;

  @Field({ description: 'The question as shown to the person filling in the note' })
  label!: string;

  @Field(() => String, { nullable: true })
  helpText!: string | null;

  @Field(() => [String], { description: 'Answers to pick from (choice kinds only; empty otherwise)' })
  options!: string[];

  @Field()
  required!: boolean;

  @Field(() => Int, { description: 'Position in the template, from 0' })
  order!: number;

  @Field({ description: 'True for a text-area question created by an earlier form migration' })
  isLegacy!: boolean;

  @Field(() => String, { nullable: true, description: "The legacy form's original wording (legacy questions only)" })
  legacyContent!: string | null;
}

/** A note template with its questions in order. */
@ObjectType('NoteTemplate', { description: 'A clinical note template: a named, versioned list of questions', simpleResolvers: true })
export class NoteTemplateType {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => Int, { description: 'Starts at 1; grows by one with every change to the questions' })
  version!: number;

  @Field(() => [TemplateQuestionType], { description: 'Questions in order' })
  questions!: TemplateQuestionType[];

  @Field(() => DateTimeScalar)
  createdAt!: Date;

  @Field(() => DateTimeScalar)
  updatedAt!: Date;
}

/** NoteTemplates as a Relay connection (docs/api.md, "Pagination"). */
@ObjectType('NoteTemplateConnection')
export class NoteTemplateConnection extends ConnectionType(NoteTemplateType, 'NoteTemplate') {}

/** Arguments of `noteTemplates`. */
@ArgsType()
export class NoteTemplateListArgs extends ConnectionArgs {
  @Field(() => SortDirection, { defaultValue: SortDirection.DESC, description: 'Order by creation time' })
  sortDirection: SortDirection = SortDirection.DESC;
}
