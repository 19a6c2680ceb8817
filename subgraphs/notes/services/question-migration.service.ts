import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import { NotFoundError, valueError } from '../../../schema/errors';
import type { NotesDeps } from '../notes-deps';
import { NoteTemplateRepository } from '../repositories/note-template.repository';
import { QuestionKind } from '../types/question-kind';
import { migrationEvents, type MigrationEvent } from './migration-events';

/** Why a question cannot be migrated; also the 422's `ctx.error` (contract part 7.2: question migration carries input and ctx). */
export const NOT_MIGRATABLE = 'only legacy text-area questions can be migrated';

/**
 * Starts a question migration: every check runs before the first event, so a bad request fails
 * as a whole (404, 422) instead of as a stream. Read-only: it loads one question and writes nothing.
 */
export class QuestionMigrationService {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope, private readonly deps: NotesDeps) {}

  /** The event stream for one legacy text-area question of the caller's template. */
  async start(templateId: string, questionId: string, requestId: string): Promise<AsyncIterableIterator<MigrationEvent>> {
    const { template, question } = await new NoteTemplateRepository(this.em, this.scope).findForMigration(templateId, questionId);
    if (!template) throw new NotFoundError('Note template not found');
    if (!question) throw new NotFoundError('Question not found');
    if (!question.isLegacy || question.kind !== QuestionKind.text_area || !question.legacyContent) {
      throw valueError(['questionId'], NOT_MIGRATABLE, questionId);
    }
    const legacy = { label: question.label, helpText: question.helpText, content: question.legacyContent };
    return migrationEvents(this.deps.suggestions, legacy, this.deps.failureLog, requestId);
  }
}
