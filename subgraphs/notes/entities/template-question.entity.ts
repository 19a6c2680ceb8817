import { Entity, ManyToOne, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';
import { QuestionKind } from '../types/question-kind';
import { NoteTemplate } from './note-template.entity';

/**
 * One question of a note template. Legacy questions were created by an earlier form migration:
 * a text area holding a whole paper form's wording in `legacyContent`, which the question
 * migration stream turns into structured suggestions.
 */
@Entity({ tableName: 'template_questions' })
export class TemplateQuestion extends TenantScopedEntity {
  /** A relation for the unit of work (templates are inserted before their questions), read as the plain id. */
  @ManyToOne({ entity: () => NoteTemplate, fieldName: 'template_id', mapToPk: true, deleteRule: 'cascade' })
  templateId!: string;

  @Property({ type: 'text' })
  kind!: QuestionKind;

  @Property({ type: 'text' })
  label!: string;

  @Property({ type: 'text', fieldName: 'help_text', nullable: true })
  helpText: string | null = null;

  @Property({ type: 'jsonb' })
  options: string[] = [];

  @Property({ type: 'boolean' })
  required: boolean = false;

  /** Position in the template, from 0; `order` is a reserved word in SQL, hence the column name. */
  @Property({ type: 'integer', fieldName: 'position' })
  order!: number;

  @Property({ type: 'boolean', fieldName: 'is_legacy' })
  isLegacy: boolean = false;

  /** Form wording that may name a patient's conditions: hidden from serialisation, never logged. */
  @Property({ type: 'text', fieldName: 'legacy_content', nullable: true, hidden: true })
  legacyContent: string | null = null;
}
