import { Field, InputType } from 'type-graphql';
import { TemplateQuestionInput } from './template-question.input';

/** A new note template, optionally with its first questions. */
@InputType('CreateNoteTemplateInput', { description: 'A new note template' })
export class CreateNoteTemplateInput {
  @Field({ description: '1 to 200 characters' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Up to 2,000 characters' })
  description?: string | null;

  @Field(() => [TemplateQuestionInput], { nullable: true, description: 'Questions in order (at most 200)' })
  questions?: TemplateQuestionInput[] | null;
}
