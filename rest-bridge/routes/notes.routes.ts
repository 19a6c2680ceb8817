import type { DocumentedRoute } from '../openapi';

/** A migration event as the GraphQL subscription sends it: every field of every type, most null. */
interface GraphQLMigrationEvent {
  type: 'question' | 'done' | 'error';
  index: number | null;
  count: number | null;
  message: string | null;
  question: { kind: string; label: string; helpText: string | null; options: string[]; required: boolean } | null;
}

/** The contract's event shapes (part 4.9): each type carries only its own fields. */
function toEvent(event: GraphQLMigrationEvent): Record<string, unknown> {
  if (event.type === 'question') return { type: 'question', index: event.index, question: event.question };
  if (event.type === 'done') return { type: 'done', count: event.count };
  return { type: 'error', message: event.message };
}

/** One event of the stream, for the OpenAPI document. */
const EVENT_SCHEMA = {
  oneOf: [
    {
      type: 'object',
      properties: {
        type: { const: 'question' },
        index: { type: 'integer', description: 'Position of the suggestion, from 0' },
        question: {
          type: 'object',
          properties: {
            kind: { enum: ['text', 'text_area', 'number', 'scale', 'yes_no', 'single_choice', 'multiple_choice', 'date'] },
            label: { type: 'string' },
            helpText: { type: ['string', 'null'] },
            options: { type: 'array', items: { type: 'string' } },
            required: { type: 'boolean' },
          },
          required: ['kind', 'label', 'helpText', 'options', 'required'],
        },
      },
      required: ['type', 'index', 'question'],
    },
    { type: 'object', properties: { type: { const: 'done' }, count: { type: 'integer' } }, required: ['type', 'count'] },
    { type: 'object', properties: { type: { const: 'error' }, message: { type: 'string' } }, required: ['type', 'message'] },
  ],
};

/** Contract part 4.9: note templates. */
export const NOTES_ROUTES: DocumentedRoute[] = [
  {
    method: 'POST',
    path: '/notes/templates/{template_id}/questions/{question_id}/migrate',
    operationId: 'migrateTemplateQuestion',
    summary: 'Stream structured questions suggested to replace a legacy text-area question (read-only)',
    tag: 'Notes',
    document: `subscription MigrateTemplateQuestion($templateId: ID!, $questionId: ID!) {
      migrateTemplateQuestion(templateId: $templateId, questionId: $questionId) {
        type index count message question { kind label helpText options required }
      }
    }`,
    pathParams: { template_id: 'templateId', question_id: 'questionId' },
    result: (data) => toEvent(data.migrateTemplateQuestion),
    stream: { errorEvent: (message) => ({ type: 'error', message }) },
    responseDescription:
      'Server-sent events, one `data:` line per event, each a JSON object: `question` events (`index`, `question`), then `done` (`count`), or `error` (`message`) ending the stream early. `: ping` comments keep a quiet stream open.',
    responseSchema: EVENT_SCHEMA,
  },
];
