import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { storedId } from '../../../platform/ids';
import { queryPrepared, type PreparedStatement } from '../../../platform/speed/prepared-statement';
import type { SortDirection } from '../../common/pagination';
import type { ListSlice } from '../../common/connection';
import { findSlice } from '../../common/keyset';
import type { ListWindow, SortKey } from '../../common/list-window';
import { NoteTemplate } from '../entities/note-template.entity';
import { TemplateQuestion } from '../entities/template-question.entity';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { QuestionKind } from '../types/question-kind';

/** The fields of a question that a migration reads. */
export interface MigrationSource {
  kind: QuestionKind;
  label: string;
  helpText: string | null;
  isLegacy: boolean;
  legacyContent: string | null;
}

interface MigrationRow extends MigrationSource {
  questionId: string | null;
}

// Raw SQL is not filtered: the tenant condition is written out on both tables.
const MIGRATION_SOURCE: PreparedStatement = {
  name: 'notes_migration_source',
  text: `select q.id as "questionId", q.kind, q.label, q.help_text as "helpText", q.is_legacy as "isLegacy", q.legacy_content as "legacyContent"
           from notes.note_templates t
           left join notes.template_questions q on q.template_id = t.id and q.tenant_id = t.tenant_id and q.id = $1
          where t.id = $2 and t.tenant_id = $3`,
};

/**
 * Every query of the notes subgraph, each bound to the scope's tenant, so another tenant's rows
 * are simply not there; ids that are no UUID cannot exist and are never sent to PostgreSQL
 * (`storedId`: its uuid cast would fail).
 */
export class NoteTemplateRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** A new template of the scope's tenant, added to the unit of work: the caller's transaction writes it with `save`. */
  addTemplate(fields: Pick<NoteTemplate, 'name' | 'description'>): NoteTemplate {
    return this.em.create(NoteTemplate, { ...fields, tenantId: this.scope.tenantId } as never);
  }

  /** A new question of the scope's tenant, added to the unit of work like `addTemplate`. */
  addQuestion(fields: Record<string, unknown>): TemplateQuestion {
    return this.em.create(TemplateQuestion, { ...fields, tenantId: this.scope.tenantId } as never);
  }

  /** Writes what was added or changed through this repository's entity manager (in the caller's transaction). */
  async save(): Promise<void> {
    await this.em.flush();
  }

  /** The template, or null when unknown or another tenant's. */
  findTemplate(id: string, options: { lock?: boolean } = {}): Promise<NoteTemplate | null> {
    const key = storedId(id);
    if (!key) return Promise.resolve(null);
    return this.em.findOne(NoteTemplate, { id: key, tenantId: this.scope.tenantId }, options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  }

  /** One window of templates by creation time (then id), and how many there are. */
  pageOfTemplates(keys: SortKey<NoteTemplate>[], window: ListWindow): Promise<ListSlice<NoteTemplate>> {
    return findSlice(this.em, NoteTemplate, { tenantId: this.scope.tenantId }, keys, window);
  }

  /** The questions of these templates in one query, each template's in order. */
  questionsOf(templateIds: string[]): Promise<TemplateQuestion[]> {
    if (templateIds.length === 0) return Promise.resolve([]);
    return this.em.find(TemplateQuestion, { templateId: { $in: templateIds }, tenantId: this.scope.tenantId }, { orderBy: { templateId: 'asc', order: 'asc' } });
  }

  /**
   * What a migration needs in one statement: whether the template exists and, if the question is
   * one of its own, the question. The stream's start is the hot path of many concurrent clients,
   * and `em.findOne` twice measured about 7 ms against about 1 ms for this (bench/RESULTS.md), a
   * prepared statement less again.
   */
  async findForMigration(templateId: string, questionId: string): Promise<{ template: boolean; question: MigrationSource | null }> {
    const template = storedId(templateId);
    if (!template) return { template: false, question: null };
    const [row] = await queryPrepared<MigrationRow>(this.em, MIGRATION_SOURCE, [storedId(questionId), template, this.scope.tenantId]);
    if (!row) return { template: false, question: null };
    const { questionId: found, ...question } = row;
    return { template: true, question: found ? question : null };
  }

  /** How many questions the template has. */
  countQuestions(templateId: string): Promise<number> {
    return this.em.count(TemplateQuestion, { templateId, tenantId: this.scope.tenantId });
  }

  /** Moves the questions at `from` and after one place down, making room for an insert (inside the caller's transaction). */
  async shiftQuestions(templateId: string, from: number): Promise<void> {
    // It must run on the transaction's connection, not a fresh one from the pool.
    await this.em
      .getConnection()
      .execute(
        'update notes.template_questions set position = position + 1, updated_at = now() where tenant_id = ? and template_id = ? and position >= ?',
        [this.scope.tenantId, templateId, from],
        'run',
        this.em.getTransactionContext(),
      );
  }
}

/** The order of the template list: creation time, id, both one way. */
export function templateKeys(direction: SortDirection): SortKey<NoteTemplate>[] {
  return [
    { field: 'createdAt', direction, kind: 'date', value: (row) => row.createdAt },
    { field: 'id', direction, kind: 'uuid', value: (row) => row.id },
  ];
}
