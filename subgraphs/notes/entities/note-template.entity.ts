import { Entity, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/** A clinical note template: a named, versioned list of questions (docs/decisions.md, Data ownership). */
@Entity({ tableName: 'note_templates' })
export class NoteTemplate extends TenantScopedEntity {
  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  /** Starts at 1 and grows by one with every change to the template's questions. */
  @Property({ type: 'integer' })
  version: number = 1;
}
