import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import { NotFoundError, ValidationError, type ValidationIssue } from '../../../schema/errors';
import type { SortDirection } from '../../common/pagination';
import { toConnection, type Connection, type ConnectionArgs } from '../../common/connection';
import { keyValues } from '../../common/keyset';
import { listWindow } from '../../common/list-window';
import type { NoteTemplate } from '../entities/note-template.entity';
import type { TemplateQuestion } from '../entities/template-question.entity';
import type { CreateNoteTemplateInput } from '../inputs/create-note-template.input';
import type { TemplateQuestionInput } from '../inputs/template-question.input';
import { NoteTemplateRepository, templateKeys } from '../repositories/note-template.repository';
import type { NoteTemplateType, TemplateQuestionType } from '../types/note-template.type';
import { checkPosition, cleanNewTemplate, cleanQuestion, type CleanQuestion } from './template-rules';

/** The question as the GraphQL type reads it. */
function questionRecord(q: TemplateQuestion): TemplateQuestionType {
  return {
    id: q.id,
    templateId: q.templateId,
    kind: q.kind,
    label: q.label,
    helpText: q.helpText,
    options: q.options,
    required: q.required,
    order: q.order,
    isLegacy: q.isLegacy,
    legacyContent: q.legacyContent,
  };
}

function templateRecord(t: NoteTemplate, questions: TemplateQuestion[]): NoteTemplateType {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    version: t.version,
    questions: questions.map(questionRecord),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

/** Reads and changes the calling tenant's note templates; the rules are in template-rules.ts. Every change leaves an audit record. */
export class NoteTemplateService {
  private readonly templates: NoteTemplateRepository;

  /** `audit`: the request's side of the audit trail (ctx.audit), written in each change's transaction. */
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope, private readonly audit: RequestAudit) {
    this.templates = new NoteTemplateRepository(em, scope);
  }

  /** One template with its questions; unknown and other tenants' ids alike are NOT_FOUND. */
  async get(id: string): Promise<NoteTemplateType> {
    const template = await this.templates.findTemplate(id);
    if (!template) throw new NotFoundError('Note template not found');
    return templateRecord(template, await this.templates.questionsOf([template.id]));
  }

  /** A window of templates, each with its questions (two queries per window, not one per template). */
  async list(args: ConnectionArgs & { sortDirection: SortDirection }): Promise<Connection<NoteTemplateType>> {
    const keys = templateKeys(args.sortDirection);
    const slice = await this.templates.pageOfTemplates(keys, listWindow(args, keys));
    const questions = await this.templates.questionsOf(slice.rows.map((t) => t.id));
    return toConnection(slice, keyValues(keys), (t) => templateRecord(t, questions.filter((q) => q.templateId === t.id)));
  }

  /** Creates a template at version 1 with its first questions and its audit record, in one transaction. */
  async create(input: CreateNoteTemplateInput): Promise<NoteTemplateType> {
    const clean = cleanNewTemplate(input);
    return this.em.transactional(async (tx) => {
      const templates = new NoteTemplateRepository(tx, this.scope);
      const template = templates.addTemplate({ name: clean.name, description: clean.description });
      const questions = clean.questions.map((q, order) => newQuestion(templates, template.id, q, order));
      await templates.save();
      await this.audit.change(tx, 'note_template.create', 'note_template', [template.id]);
      return templateRecord(template, questions);
    });
  }

  /** Adds a question at its position (default: last) and bumps the template's version, with its audit record. */
  async addQuestion(templateId: string, input: TemplateQuestionInput): Promise<TemplateQuestionType> {
    const issues: ValidationIssue[] = [];
    const clean = cleanQuestion(issues, ['input'], input);
    if (issues.length) throw new ValidationError(issues);
    return this.em.transactional(async (tx) => {
      const templates = new NoteTemplateRepository(tx, this.scope);
      // The row lock serialises concurrent inserts into one template, so positions stay dense.
      const template = await templates.findTemplate(templateId, { lock: true });
      if (!template) throw new NotFoundError('Note template not found');
      const order = checkPosition(clean.order, await templates.countQuestions(template.id));
      await templates.shiftQuestions(template.id, order);
      const question = newQuestion(templates, template.id, clean, order);
      template.version += 1;
      await templates.save();
      await this.audit.change(tx, 'template_question.add', 'template_question', [question.id]);
      return questionRecord(question);
    });
  }
}

/** A question of the template at `order`, added to the repository's unit of work. */
function newQuestion(templates: NoteTemplateRepository, templateId: string, q: CleanQuestion, order: number): TemplateQuestion {
  return templates.addQuestion({
    templateId,
    kind: q.kind,
    label: q.label,
    helpText: q.helpText,
    options: q.options,
    required: q.required,
    order,
    isLegacy: q.isLegacy,
    legacyContent: q.legacyContent,
  });
}
