import { buildSchema, isInputObjectType } from 'graphql';
import { apiSchemaOf } from '../../../gateway/tools/api-contract';
import { buildOpenApiDocument, type DocumentedRoute } from '../../../rest-bridge/openapi';
import { INPUT_FIELD_RULES } from '../../../schema/input-field-rules';
import { readSupergraph } from '../../../schema/supergraph';

const schema = buildSchema(`
  scalar JSON
  input WidgetPositionInput { x: Int! y: Int! w: Int! h: Int! }
  input UpdateWidgetInput { name: String position: WidgetPositionInput query: JSON }
  input UpdateDashboardInput { name: String description: String layout: JSON }
  type Query { ok: Boolean }
  type Mutation {
    updateWidget(input: UpdateWidgetInput!): Boolean
    updateDashboard(input: UpdateDashboardInput!): Boolean
  }
`);

const route = (name: string, type: string): DocumentedRoute => ({
  method: 'PUT',
  path: `/${name}`,
  operationId: name,
  summary: name,
  tag: 'Analytics',
  document: `mutation ($input: ${type}!) { ${name}(input: $input) }`,
  body: { variable: 'input', required: true },
  result: (data) => data[name],
});

const doc = buildOpenApiDocument([route('updateWidget', 'UpdateWidgetInput'), route('updateDashboard', 'UpdateDashboardInput')], schema) as any;
const { schemas } = doc.components;

describe('input field rules in the OpenAPI document (schema/input-field-rules.ts)', () => {
  it('writes an optional field that refuses null as its type alone, still optional; one without a rule stays nullable', () => {
    expect(schemas.UpdateWidgetInput.properties.name).toEqual({ type: 'string' });
    expect(schemas.UpdateWidgetInput.properties.position).toEqual({ $ref: '#/components/schemas/WidgetPositionInput' });
    expect(schemas.UpdateWidgetInput.required).toBeUndefined();
    expect(schemas.UpdateDashboardInput.properties.description).toEqual({ type: ['string', 'null'] });
  });

  it('narrows a JSON scalar to the JSON types the server takes, and gives integers their minimums', () => {
    expect(schemas.UpdateWidgetInput.properties.query).toEqual({ type: 'object' });
    expect(schemas.UpdateDashboardInput.properties.layout).toEqual({ anyOf: [{ type: 'object' }, { type: 'array' }] });
    expect(schemas.WidgetPositionInput.properties).toEqual({
      x: { type: 'integer', minimum: 0 },
      y: { type: 'integer', minimum: 0 },
      w: { type: 'integer', minimum: 1 },
      h: { type: 'integer', minimum: 1 },
    });
  });

  it('names only input types and fields the graph has, so a rename cannot leave a rule behind unnoticed', () => {
    const api = apiSchemaOf(readSupergraph());
    const missing = Object.entries(INPUT_FIELD_RULES).flatMap(([typeName, fields]) => {
      const type = api.getType(typeName);
      if (!type || !isInputObjectType(type)) return [typeName];
      return Object.keys(fields).filter((field) => !type.getFields()[field]).map((field) => `${typeName}.${field}`);
    });
    expect(missing).toEqual([]);
  });
});
