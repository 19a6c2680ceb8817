import { randomUUID } from 'node:crypto';
import { createTestTenant } from '../utils/e2e';

const TEMPLATE = 'id name description version questions { id kind label helpText options required order isLegacy legacyContent }';

describe(`note templates over the federated graph (${process.env.E2E_MODE} mode)`, () => {
  it('creates, extends, reads and lists templates', async () => {
    const tenant = await createTestTenant('Notes Clinic');
    const created = await tenant.graphql(`mutation($input: CreateNoteTemplateInput!) { createNoteTemplate(input: $input) { ${TEMPLATE} } }`, {
      input: { name: 'SOAP note', description: 'Standard visit', questions: [{ kind: 'TEXT', label: 'Subjective', required: true }] },
    });
    expect(created.body.errors).toBeUndefined();
    const template = created.body.data.createNoteTemplate;
    expect(template).toMatchObject({ name: 'SOAP note', description: 'Standard visit', version: 1 });
    expect(template.questions).toEqual([
      { id: expect.any(String), kind: 'TEXT', label: 'Subjective', helpText: null, options: [], required: true, order: 0, isLegacy: false, legacyContent: null },
    ]);

    const added = await tenant.graphql('mutation($t: ID!, $input: TemplateQuestionInput!) { addTemplateQuestion(templateId: $t, input: $input) { kind order options } }', {
      t: template.id,
      input: { kind: 'MULTIPLE_CHOICE', label: 'Findings', options: ['Swelling', 'Bruising'] },
    });
    expect(added.body.data.addTemplateQuestion).toEqual({ kind: 'MULTIPLE_CHOICE', order: 1, options: ['Swelling', 'Bruising'] });

    const read = await tenant.graphql('query($id: ID!) { noteTemplate(id: $id) { version questions { label } } }', { id: template.id });
    expect(read.body.data.noteTemplate).toEqual({ version: 2, questions: [{ label: 'Subjective' }, { label: 'Findings' }] });
    const list = await tenant.graphql('{ noteTemplates { totalCount pageInfo { hasNextPage hasPreviousPage } nodes { id } } }');
    expect(list.body.data.noteTemplates).toEqual({ totalCount: 1, pageInfo: { hasNextPage: false, hasPreviousPage: false }, nodes: [{ id: template.id }] });
  });

  it("answers NOT_FOUND for another tenant's template and for unknown ids of any shape", async () => {
    const [owner, stranger] = await Promise.all([createTestTenant('Owner'), createTestTenant('Stranger')]);
    const created = await owner.graphql('mutation { createNoteTemplate(input: {name: "Private"}) { id } }');
    for (const id of [created.body.data.createNoteTemplate.id, randomUUID(), 'not-a-uuid']) {
      const res = await stranger.graphql('query($id: ID!) { noteTemplate(id: $id) { id } }', { id });
      expect(res.body.errors).toEqual([expect.objectContaining({ message: 'Note template not found', extensions: { code: 'NOT_FOUND' } })]);
    }
    expect((await stranger.graphql('{ noteTemplates { totalCount } }')).body.data.noteTemplates.totalCount).toBe(0);
  });

  it('answers BAD_USER_INPUT with Pydantic-style issues located at the argument', async () => {
    const tenant = await createTestTenant();
    const res = await tenant.graphql('mutation { createNoteTemplate(input: {name: "", questions: [{kind: YES_NO, label: "Q", options: ["a", "b"]}]}) { id } }');
    expect(res.body.errors[0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      validation: [
        { type: 'string_too_short', loc: ['input', 'name'], msg: 'String should have at least 1 character', input: '', ctx: { min_length: 1 } },
        {
          type: 'value_error',
          loc: ['input', 'questions', 0, 'options'],
          msg: 'Value error, options are only allowed for single_choice and multiple_choice questions',
          input: ['a', 'b'],
          ctx: { error: 'options are only allowed for single_choice and multiple_choice questions' },
        },
      ],
    });
  });
});
