import { randomUUID } from 'node:crypto';
import { parse, subscribe } from 'graphql';
import { Client } from 'pg';
import { startSubgraph, type RunningSubgraph } from '../../../platform/subgraph-runtime';
import { TenantScope } from '../../../platform/tenant-scope';
import { notesSubgraph } from '../../../subgraphs/notes';
import { NoteTemplateService } from '../../../subgraphs/notes/services/note-template.service';
import { auditRecords, AUDIT_CLIENT_ADDRESS, AUDIT_KEY_ID, changeBy, refusedAudit, runAudited, type AuditedRun } from '../../utils/audit-records';

const CREATE = 'mutation($i: CreateNoteTemplateInput!) { createNoteTemplate(input: $i) { id questions { id } } }';
const ADD = 'mutation($t: ID!, $i: TemplateQuestionInput!) { addTemplateQuestion(templateId: $t, input: $i) { id } }';
const MIGRATE = 'subscription($t: ID!, $q: ID!) { migrateTemplateQuestion(templateId: $t, questionId: $q) { type } }';

/**
 * Notes in the audit trail (docs/audit.md): template changes recorded in their transactions, and
 * a question migration recorded when its stream starts (it runs in the request, neither in a
 * transaction nor as a job), before any event; one refused before it starts records nothing.
 */
describe('notes subgraph: audit records (real PostgreSQL)', () => {
  let subgraph: RunningSubgraph;
  let db: Client;

  beforeAll(async () => {
    subgraph = await startSubgraph(notesSubgraph, process.env.DATABASE_URL!, { migrate: false });
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await subgraph.close();
  });

  const run = async (tenantId: string, query: string, variables?: Record<string, unknown>): Promise<AuditedRun> => {
    const result = await runAudited(subgraph, tenantId, query, variables);
    expect(result.errors).toBeUndefined();
    return result;
  };
  /** Starts a migration stream as the key and reads it to its end; the request id and the event types. */
  const migrate = async (tenantId: string, templateId: string, questionId: string) => {
    const requestId = randomUUID();
    const contextValue = subgraph.context({ tenantId, requestId, actor: { kind: 'key', id: AUDIT_KEY_ID }, clientAddress: AUDIT_CLIENT_ADDRESS });
    const stream = await subscribe({ schema: subgraph.schema, document: parse(MIGRATE), variableValues: { t: templateId, q: questionId }, contextValue });
    const types: string[] = [];
    if (Symbol.asyncIterator in stream) for await (const event of stream) types.push((event.data as any)?.migrateTemplateQuestion.type);
    else types.push(`error: ${stream.errors?.[0].message}`);
    return { requestId, types };
  };

  it('records template changes and the start of a question migration', async () => {
    const tenant = randomUUID();
    const created = await run(tenant, CREATE, { i: { name: 'Intake', questions: [{ kind: 'TEXT_AREA', label: 'Old form', legacyContent: 'Name?\nPain 0-10?' }] } });
    const { id: templateId, questions } = created.data.createNoteTemplate;
    const added = await run(tenant, ADD, { t: templateId, i: { kind: 'TEXT', label: 'Allergies' } });
    const started = await migrate(tenant, templateId, questions[0].id);
    expect(started.types[started.types.length - 1]).toBe('DONE');
    const refused = await migrate(tenant, templateId, added.data.addTemplateQuestion.id);
    expect(refused.types).toEqual([expect.stringMatching(/^error: /)]);

    expect(await auditRecords(db, tenant, subgraph)).toMatchObject([
      changeBy(created, 'note_template.create', 'note_template', [templateId]),
      changeBy(added, 'template_question.add', 'template_question', [added.data.addTemplateQuestion.id]),
      changeBy({ requestId: started.requestId } as AuditedRun, 'template_question.migrate', 'template_question', [questions[0].id]),
    ]);
  });

  it('reads of templates record nothing (no PHI), and a change whose record is refused is undone with it', async () => {
    const tenant = randomUUID();
    await run(tenant, '{ noteTemplates { totalCount } }');
    const scope = TenantScope.ofStoredRow(tenant);
    const service = new NoteTemplateService(scope.guard(subgraph.orm.em.fork() as never), scope, refusedAudit(tenant));
    await expect(service.create({ name: 'Never' } as never)).rejects.toThrow(/actor_kind/);
    expect((await db.query('select count(*)::int as n from notes.note_templates where tenant_id = $1', [tenant])).rows[0].n).toBe(0);
    expect(await auditRecords(db, tenant, subgraph)).toEqual([]);
  });
});
