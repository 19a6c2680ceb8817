import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import type { Connection } from '../../common/connection';
import { requireScope } from '../../common/require-tenant';
import { CreateNoteTemplateInput } from '../inputs/create-note-template.input';
import { TemplateQuestionInput } from '../inputs/template-question.input';
import { NoteTemplateService } from '../services/note-template.service';
import { NoteTemplateConnection, NoteTemplateListArgs, NoteTemplateType, TemplateQuestionType } from '../types/note-template.type';

/** Root fields of note templates (names: docs/api.md); thin: arguments -> service -> result. */
@Resolver(() => NoteTemplateType)
export class NoteTemplateResolver {
  @Query(() => NoteTemplateType, {
    nullable: true,
    description: "One of the tenant's note templates with its questions in order; null with a NOT_FOUND error for an unknown id",
  })
  noteTemplate(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<NoteTemplateType> {
    return new NoteTemplateService(ctx.em, requireScope(ctx), ctx.audit).get(id);
  }

  @Query(() => NoteTemplateConnection, { description: "The tenant's note templates, newest first by default" })
  noteTemplates(@Args() args: NoteTemplateListArgs, @Ctx() ctx: SubgraphContext): Promise<Connection<NoteTemplateType>> {
    return new NoteTemplateService(ctx.em, requireScope(ctx), ctx.audit).list(args);
  }

  @Mutation(() => NoteTemplateType, { description: 'Creates a note template at version 1, optionally with its first questions' })
  createNoteTemplate(@Arg('input', () => CreateNoteTemplateInput) input: CreateNoteTemplateInput, @Ctx() ctx: SubgraphContext): Promise<NoteTemplateType> {
    return new NoteTemplateService(ctx.em, requireScope(ctx), ctx.audit).create(input);
  }

  @Mutation(() => TemplateQuestionType, { description: "Adds a question to a template (last by default) and bumps the template's version" })
  addTemplateQuestion(
    @Arg('templateId', () => ID) templateId: string,
    @Arg('input', () => TemplateQuestionInput) input: TemplateQuestionInput,
    @Ctx() ctx: SubgraphContext,
  ): Promise<TemplateQuestionType> {
    return new NoteTemplateService(ctx.em, requireScope(ctx), ctx.audit).addQuestion(templateId, input);
  }
}
