import { Field, InputType, Int } from 'type-graphql';
import { QuestionKind } from '../types/question-kind';

/** A question to add to a template; the rules live in services/template-rules.ts. */
@InputType('TemplateQuestionInput', { description: 'A question to add to a note template' })
export class TemplateQuestionInput {
  @Field(() => QuestionKind)
  kind!: QuestionKind;

  @Field({ description: '1 to 500 characters' })
  label!: string;

  @Field(() => String, { nullable: true, description: 'Up to 1,000 characters' })
  helpText?: string | null;

  @Field(() => [String], { nullable: true, description: 'Required for choice kinds (2 to 50, each 1 to 200 characters); not allowed otherwise' })
  options?: string[] | null;

  @Field({ defaultValue: false })
  required: boolean = false;

  @Field(() => Int, { nullable: true, description: 'Position to insert at, from 0 (the questions from there on move down); default: last' })
  order?: number | null;

  @Field(() => String, {
    nullable: true,
    description: "A legacy form's original wording, up to 20,000 characters, for importing forms: makes a legacy question, which must be of kind text_area",
  })
  legacyContent?: string | null;
}
