import { randomUUID } from 'node:crypto';
import { execute, parse } from 'graphql';
import { notesSubgraph } from '../../../subgraphs/notes';
import { startSubgraph, type RunningSubgraph } from '../../../platform/subgraph-runtime';

const FIELDS = 'id name description version createdAt updatedAt questions { id templateId kind label helpText options required order isLegacy legacyContent }';

describe('note templates in the notes subgraph (real PostgreSQL)', () => {
  let subgraph: RunningSubgraph;
  beforeAll(async () => {
    subgraph = await startSubgraph(notesSubgraph, process.env.DATABASE_URL!, { migrate: false });
  });
  afterAll(() => subgraph.close());

  const run = async (tenantId: string | null, query: string, variableValues?: Record<string, unknown>) =>
    execute({ schema: subgraph.schema, document: parse(query), variableValues, contextValue: subgraph.context({ tenantId, requestId: 'test' }) }) as Promise<{ data?: any; errors?: any[] }>;
  const create = async (tenantId: string, input: Record<string, unknown>) => {
    const result = await run(tenantId, `mutation($input: CreateNoteTemplateInput!) { createNoteTemplate(input: $input) { ${FIELDS} } }`, { input });
    expect(result.errors).toBeUndefined();
    return result.data.createNoteTemplate;
  };
  const addQuestion = (tenantId: string, templateId: string, input: Record<string, unknown>) =>
    run(tenantId, `mutation($t: ID!, $input: TemplateQuestionInput!) { addTemplateQuestion(templateId: $t, input: $input) { id order kind label options isLegacy legacyContent } }`, { t: templateId, input });
  const issuesOf = (result: { errors?: any[] }) => {
    expect(result.errors?.[0].originalError?.constructor.name).toBe('ValidationError');
    return result.errors![0].originalError.issues;
  };

  it('creates a template at version 1 with its questions in order, and reads it back', async () => {
    const tenant = randomUUID();
    const created = await create(tenant, {
      name: '  Knee follow-up ',
      description: 'Post-op',
      questions: [
        { kind: 'SCALE', label: 'Pain today', helpText: 'Scale from 0 to 10' },
        { kind: 'SINGLE_CHOICE', label: 'Swelling', options: ['None', 'Some', 'A lot'], required: true },
        { kind: 'TEXT_AREA', label: 'Old form', legacyContent: 'Pain? 0-10' },
      ],
    });
    expect(created).toMatchObject({ name: 'Knee follow-up', description: 'Post-op', version: 1 });
    expect(created.questions.map((q: any) => [q.order, q.kind, q.isLegacy])).toEqual([
      [0, 'SCALE', false],
      [1, 'SINGLE_CHOICE', false],
      [2, 'TEXT_AREA', true],
    ]);
    expect(created.questions[2]).toMatchObject({ templateId: created.id, legacyContent: 'Pain? 0-10', options: [], required: false });
    const read = await run(tenant, `query($id: ID!) { noteTemplate(id: $id) { ${FIELDS} } }`, { id: created.id });
    expect(read.data!.noteTemplate).toEqual(created);
  });

  it('adds questions last by default or at a position, moving the rest down, and bumps the version', async () => {
    const tenant = randomUUID();
    const template = await create(tenant, { name: 'Intake', questions: [{ kind: 'TEXT', label: 'A' }, { kind: 'TEXT', label: 'B' }] });
    expect((await addQuestion(tenant, template.id, { kind: 'DATE', label: 'C' })).data!.addTemplateQuestion).toMatchObject({ order: 2, kind: 'DATE' });
    expect((await addQuestion(tenant, template.id, { kind: 'YES_NO', label: 'First', order: 0 })).data!.addTemplateQuestion).toMatchObject({ order: 0 });
    const read = await run(tenant, `query($id: ID!) { noteTemplate(id: $id) { version questions { label order } } }`, { id: template.id });
    expect(read.data!.noteTemplate).toEqual({
      version: 3,
      questions: [
        { label: 'First', order: 0 },
        { label: 'A', order: 1 },
        { label: 'B', order: 2 },
        { label: 'C', order: 3 },
      ],
    });
  });

  it('lists templates newest first as a connection, oldest first on request', async () => {
    const tenant = randomUUID();
    for (const name of ['One', 'Two', 'Three']) await create(tenant, { name, questions: [{ kind: 'TEXT', label: `${name}?` }] });
    const page = await run(tenant, '{ noteTemplates(first: 2) { totalCount pageInfo { hasNextPage endCursor } nodes { name questions { label } } } }');
    expect(page.data!.noteTemplates).toEqual({
      totalCount: 3,
      pageInfo: { hasNextPage: true, endCursor: expect.any(String) },
      nodes: [
        { name: 'Three', questions: [{ label: 'Three?' }] },
        { name: 'Two', questions: [{ label: 'Two?' }] },
      ],
    });
    const rest = await run(tenant, 'query($after: String) { noteTemplates(first: 2, after: $after) { nodes { name } } }', { after: page.data!.noteTemplates.pageInfo.endCursor });
    expect(rest.data!.noteTemplates.nodes).toEqual([{ name: 'One' }]);
    const oldest = await run(tenant, '{ noteTemplates(last: 1, sortDirection: ASC) { nodes { name } } }');
    expect(oldest.data!.noteTemplates.nodes).toEqual([{ name: 'Three' }]);
    expect(issuesOf(await run(tenant, '{ noteTemplates(first: 101) { totalCount } }'))[0]).toMatchObject({ type: 'less_than_equal', loc: ['first'] });
  });

  it("treats another tenant's ids and ids of any shape as unknown", async () => {
    const owner = randomUUID();
    const template = await create(owner, { name: 'Private', questions: [{ kind: 'TEXT', label: 'Q' }] });
    for (const id of [template.id, randomUUID(), 'not-a-uuid', '', "1' or '1'='1"]) {
      const read = await run(randomUUID(), 'query($id: ID!) { noteTemplate(id: $id) { id } }', { id });
      expect(read.errors?.[0]).toMatchObject({ message: 'Note template not found' });
      expect(read.errors?.[0].originalError?.constructor.name).toBe('NotFoundError');
      const add = await addQuestion(randomUUID(), id, { kind: 'TEXT', label: 'Sneaky' });
      expect(add.errors?.[0].message).toBe('Note template not found');
    }
    const list = await run(randomUUID(), '{ noteTemplates { totalCount } }');
    expect(list.data!.noteTemplates.totalCount).toBe(0);
  });

  it('refuses to work without a tenant', async () => {
    const result = await run(null, '{ noteTemplates { totalCount } }');
    expect(result.errors?.[0].message).toBe('A tenant is required');
  });

  it('validates a new template, reporting every issue at once in Pydantic shape', async () => {
    const result = await run(randomUUID(), 'mutation($input: CreateNoteTemplateInput!) { createNoteTemplate(input: $input) { id } }', {
      input: {
        name: '   ',
        description: 'x'.repeat(2_001),
        questions: [
          { kind: 'SINGLE_CHOICE', label: 'Pick', options: ['Only'] },
          { kind: 'TEXT', label: 'Q', options: ['a', 'b'] },
          { kind: 'YES_NO', label: 'Old', legacyContent: 'Smoker? Y/N' },
          { kind: 'MULTIPLE_CHOICE', label: 'Dupes', options: ['A', 'a'] },
          { kind: 'TEXT', label: 'Placed', order: 7 },
        ],
      },
    });
    expect(issuesOf(result)).toEqual([
      { type: 'string_too_short', loc: ['input', 'name'], msg: 'String should have at least 1 character', input: '   ', ctx: { min_length: 1 } },
      { type: 'string_too_long', loc: ['input', 'description'], msg: 'String should have at most 2000 characters', input: 'x'.repeat(2_001), ctx: { max_length: 2_000 } },
      { type: 'value_error', loc: ['input', 'questions', 0, 'options'], msg: 'Value error, single_choice questions need at least 2 options', input: ['Only'], ctx: { error: 'single_choice questions need at least 2 options' } },
      {
        type: 'value_error',
        loc: ['input', 'questions', 1, 'options'],
        msg: 'Value error, options are only allowed for single_choice and multiple_choice questions',
        input: ['a', 'b'],
        ctx: { error: 'options are only allowed for single_choice and multiple_choice questions' },
      },
      { type: 'value_error', loc: ['input', 'questions', 2, 'legacyContent'], msg: 'Value error, legacy questions must be of kind text_area', input: 'Smoker? Y/N', ctx: { error: 'legacy questions must be of kind text_area' } },
      { type: 'value_error', loc: ['input', 'questions', 3, 'options'], msg: 'Value error, options must be unique', input: ['A', 'a'], ctx: { error: 'options must be unique' } },
      {
        type: 'value_error',
        loc: ['input', 'questions', 4, 'order'],
        msg: 'Value error, initial questions take their position from the list; leave order out',
        input: 7,
        ctx: { error: 'initial questions take their position from the list; leave order out' },
      },
    ]);
    expect(result.errors![0].extensions).toBeDefined();
  });

  it('validates an added question, including its position against the template', async () => {
    const tenant = randomUUID();
    const template = await create(tenant, { name: 'T', questions: [{ kind: 'TEXT', label: 'A' }] });
    expect(issuesOf(await addQuestion(tenant, template.id, { kind: 'TEXT', label: '', order: -1 }))).toEqual([
      { type: 'string_too_short', loc: ['input', 'label'], msg: 'String should have at least 1 character', input: '', ctx: { min_length: 1 } },
      { type: 'greater_than_equal', loc: ['input', 'order'], msg: 'Input should be greater than or equal to 0', input: -1, ctx: { ge: 0 } },
    ]);
    expect(issuesOf(await addQuestion(tenant, template.id, { kind: 'TEXT', label: 'Far', order: 5 }))).toEqual([
      { type: 'less_than_equal', loc: ['input', 'order'], msg: 'Input should be less than or equal to 1', input: 5, ctx: { le: 1 } },
    ]);
    const read = await run(tenant, 'query($id: ID!) { noteTemplate(id: $id) { version questions { label } } }', { id: template.id });
    expect(read.data!.noteTemplate).toEqual({ version: 1, questions: [{ label: 'A' }] });
  });

  it('keeps positions dense when questions are added concurrently', async () => {
    const tenant = randomUUID();
    const template = await create(tenant, { name: 'Busy' });
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => addQuestion(tenant, template.id, { kind: 'TEXT', label: `Q${i}`, order: 0 })));
    expect(results.every((r) => !r.errors)).toBe(true);
    const read = await run(tenant, 'query($id: ID!) { noteTemplate(id: $id) { version questions { order } } }', { id: template.id });
    expect(read.data!.noteTemplate.version).toBe(9);
    expect(read.data!.noteTemplate.questions.map((q: any) => q.order)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});
