import { createHealthResolver } from '../common/health.resolver';
import { migration } from '../../platform/orm';
import type { SubgraphDefinition } from '../../platform/subgraph-definition';
import { NoteTemplate } from './entities/note-template.entity';
import { TemplateQuestion } from './entities/template-question.entity';
import { Migration20261123000000_note_templates } from './migrations/Migration20261123000000_note_templates';
import { NoteTemplateResolver } from './resolvers/note-template.resolver';
import { QuestionMigrationResolver } from './resolvers/question-migration.resolver';
import { seedNotesDemo } from './seeder';
import { configureNotes, type NotesDeps } from './notes-deps';
import { readLlmSettings, type LlmSettings } from './providers/llm-settings';

/** The notes subgraph: note templates, their questions, and question migration (docs/decisions.md, Data ownership and Streaming). */
export const notesSubgraph: SubgraphDefinition<LlmSettings | null, NotesDeps> = {
  name: 'notes',
  schema: 'notes',
  entities: [NoteTemplate, TemplateQuestion],
  migrations: [migration('Migration20261123000000_note_templates', Migration20261123000000_note_templates)],
  resolvers: [NoteTemplateResolver, QuestionMigrationResolver, createHealthResolver('notes')],
  seedDemo: seedNotesDemo,
  // LLM_BASE_URL, LLM_API_KEY, LLM_MODEL, LLM_TIMEOUT_MS: the suggestion provider of whichever process runs this subgraph.
  readSettings: readLlmSettings,
  configure: configureNotes,
};

// The notes subgraph's public face beyond its definition.
export type { NotesDeps } from './notes-deps';
export type { LlmSettings } from './providers/llm-settings';
