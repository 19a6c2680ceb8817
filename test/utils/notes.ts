import { Client } from 'pg';
import type { TestTenant } from './e2e';

/** A legacy intake form mixing every kind the built-in provider recognises. */
export const LEGACY_FORM = ['INTAKE', 'Reason for visit?', 'Do you smoke? (yes/no)', 'Rate your pain (0-10)', 'Contact by: phone / email', 'Symptoms:', '[ ] Rash', '[ ] Fever', 'Date of injury'].join('\n');

/** What the built-in provider proposes for LEGACY_FORM, in order. */
export const LEGACY_FORM_SUGGESTIONS = [
  { kind: 'text', label: 'Reason for visit?', helpText: null, options: [], required: false },
  { kind: 'yes_no', label: 'Do you smoke?', helpText: null, options: [], required: false },
  { kind: 'scale', label: 'Rate your pain', helpText: 'Scale from 0 to 10', options: [], required: false },
  { kind: 'single_choice', label: 'Contact by', helpText: null, options: ['phone', 'email'], required: false },
  { kind: 'multiple_choice', label: 'Symptoms', helpText: null, options: ['Rash', 'Fever'], required: false },
  { kind: 'date', label: 'Date of injury', helpText: null, options: [], required: false },
];

/** A template of one tenant with a legacy text-area question and a plain one. */
export interface TestTemplate {
  templateId: string;
  legacyQuestionId: string;
  plainQuestionId: string;
}

/** Creates a template through the gateway's GraphQL endpoint. */
export async function createLegacyTemplate(tenant: TestTenant, content = LEGACY_FORM): Promise<TestTemplate> {
  const res = await tenant.graphql(
    `mutation($input: CreateNoteTemplateInput!) { createNoteTemplate(input: $input) { id questions { id isLegacy } } }`,
    { input: { name: 'Imported intake', questions: [{ kind: 'TEXT', label: 'Full name' }, { kind: 'TEXT_AREA', label: 'Paper form', legacyContent: content }] } },
  );
  if (res.status !== 200 || res.body.errors) throw new Error(`creating a template failed: ${res.status} ${res.text}`);
  const template = res.body.data.createNoteTemplate;
  return { templateId: template.id, plainQuestionId: template.questions[0].id, legacyQuestionId: template.questions[1].id };
}

/**
 * Row counts and an MD5 of every row of the tenant's notes tables: equal before and after
 * proves a stream wrote nothing. Scoped to one tenant because other test files write their own.
 */
export async function notesFingerprint(tenantId: string): Promise<Record<string, { rows: number; hash: string }>> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(
      "select table_name from information_schema.columns where table_schema = 'notes' and column_name = 'tenant_id' order by table_name",
    );
    const fingerprint: Record<string, { rows: number; hash: string }> = {};
    for (const { table_name: table } of tables.rows) {
      const { rows } = await client.query(
        `select count(*)::int as rows, coalesce(md5(string_agg(t::text, '|' order by t.id)), '') as hash from notes."${table}" t where tenant_id = $1`,
        [tenantId],
      );
      fingerprint[table] = rows[0];
    }
    return fingerprint;
  } finally {
    await client.end();
  }
}
