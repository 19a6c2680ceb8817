import { Arg, ID, Resolver, Root, Subscription } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import { requireScope } from '../../common/require-tenant';
import type { MigrationEvent } from '../services/migration-events';
import { QuestionMigrationService } from '../services/question-migration.service';
import { QuestionMigrationEventType } from '../types/migration-event.type';
import type { NotesContext } from '../notes-deps';

/**
 * The question migration stream (docs/decisions.md, Streaming), served over graphql-sse at /graphql/stream
 * and as `text/event-stream` by the REST bridge. Errors thrown while subscribing (unknown ids,
 * a question that is not a legacy text area) reach the client before any event.
 */
@Resolver()
export class QuestionMigrationResolver {
  @Subscription(() => QuestionMigrationEventType, {
    description:
      'Streams structured questions suggested to replace a legacy text-area question: `question` events, then `done`, or an `error` that ends the stream. Nothing is stored.',
    subscribe: ({ args, context }) => {
      const ctx = context as SubgraphContext;
      return new QuestionMigrationService(ctx.em, requireScope(ctx), (ctx as NotesContext).deps, ctx.audit).start(args.templateId, args.questionId, ctx.requestId);
    },
  })
  migrateTemplateQuestion(
    @Root() event: MigrationEvent,
    @Arg('templateId', () => ID) _templateId: string,
    @Arg('questionId', () => ID) _questionId: string,
  ): MigrationEvent {
    return event;
  }
}
