import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import { NotFoundError, valueError } from '../../../schema/errors';
import type { NotesDeps } from '../notes-deps';
import { NoteTemplateRepository } from '../repositories/note-template.repository';
import { QuestionKind } from '../types/question-kind';
import { migrationEvents, type MigrationEvent } from './migration-events';

/** Why a question cannot be migrated; also the 422's `ctx.error` (contract part 7.2: question migration carries input and ctx). */
export const NOT_MIGRATABLE = 'only legacy text-area questions can be migrated';

/**
 * Starts a question migration: every check runs before the first event, so a bad request fails
 * as a whole (404, 422) instead of as a stream. It writes nothing of the tenant's, but starting
 * one is audited as a change (`template_question.migrate`): the question's legacy content goes to
 * the suggestion provider.
 */
export class QuestionMigrationService {
  /** `audit`: the request's side of the audit trail (ctx.audit). */
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope, private readonly deps: NotesDeps, private readonly audit: RequestAudit) {}

  /** The event stream for one legacy text-area question of the caller's template, its start recorded first. */
  async start(templateId: string, questionId: string, requestId: string): Promise<AsyncIterableIterator<MigrationEvent>> {
    const { template, question } = await new NoteTemplateRepository(this.em, this.scope).findForMigration(templateId, questionId);
    if (!template) throw new NotFoundError('Note template not found');
    if (!question) throw new NotFoundError('Question not found');
    if (!question.isLegacy || question.kind !== QuestionKind.TEXT_AREA || !question.legacyContent) {
      throw valueError(['questionId'], NOT_MIGRATABLE, questionId);
    }
    const legacy = { label: question.label, helpText: question.helpText, content: question.legacyContent };
    // No transaction starts it and no job runs it (the stream is generated in this request): the
    // record is written on its own, once the checks passed and before the first event can leave.
    await this.audit.change(this.em, 'template_question.migrate', 'template_question', [questionId.toLowerCase()]);
    return migrationEvents(this.deps.suggestions, legacy, this.deps.failureLog, requestId);
  }
}
