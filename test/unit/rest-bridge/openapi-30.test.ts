import { buildSchema } from 'graphql';
import { buildOpenApiDocument } from '../../../rest-bridge/openapi';
import { toOpenApi30 } from '../../../rest-bridge/openapi-30';

const doc = (schemas: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, components: { schemas }, ...extra });

describe('toOpenApi30', () => {
  it('renders nullable types, nullable references and const as OpenAPI 3.0 says them', () => {
    const rendered = toOpenApi30(
      doc({
        A: {
          type: 'object',
          properties: {
            name: { type: ['string', 'null'] },
            kind: { type: 'string', const: 'Widget' },
            owner: { anyOf: [{ $ref: '#/components/schemas/B' }, { type: 'null' }] },
            tags: { type: ['array', 'null'], items: { type: 'string', enum: ['a', 'b'] } },
          },
          required: ['kind'],
        },
        B: { type: 'object', additionalProperties: { type: ['integer', 'null'] } },
      }),
    ) as any;
    expect(rendered.openapi).toBe('3.0.3');
    expect(rendered.components.schemas.A.properties).toEqual({
      name: { type: 'string', nullable: true },
      kind: { type: 'string', enum: ['Widget'] },
      owner: { anyOf: [{ $ref: '#/components/schemas/B' }], nullable: true },
      tags: { type: 'array', nullable: true, items: { type: 'string', enum: ['a', 'b'] } },
    });
    expect(rendered.components.schemas.B.additionalProperties).toEqual({ type: 'integer', nullable: true });
  });

  it('keeps the webhooks as an extension and renders schemas in operations, parameters and headers', () => {
    const schema = buildSchema('type Query { widget(id: ID!, page: Int): W } type W { id: ID! note: String }');
    const source = buildOpenApiDocument(
      [{ method: 'GET', path: '/w/{id}', operationId: 'w', summary: 'w', tag: 'W', document: 'query ($id: ID!, $page: Int) { widget(id: $id, page: $page) { id note } }', pathParams: { id: 'id' }, queryParams: { page: 'page' }, result: (d) => d.widget }],
      schema,
    );
    const rendered = toOpenApi30({ ...source, webhooks: { ping: { post: { responses: { '2XX': { description: 'ok' } } } } } }) as any;
    const operation = rendered.paths['/w/{id}'].get;
    expect(operation.parameters[1].schema).toEqual({ type: 'integer', nullable: true });
    // A lookup by id answers 404, never a null body: its root field's null is dropped; a nullable field inside stays nullable.
    expect(operation.responses['200'].content['application/json'].schema).toMatchObject({ type: 'object', properties: { note: { type: 'string', nullable: true } } });
    expect(operation.responses['200'].content['application/json'].schema.nullable).toBeUndefined();
    expect(rendered.webhooks).toBeUndefined();
    expect(rendered['x-webhooks']).toEqual({ ping: { post: { responses: { '2XX': { description: 'ok' } } } } });
    // The 3.1 document itself is left as it was.
    expect((source as any).openapi).toBe('3.1.0');
  });

  it('refuses what 3.0 cannot say instead of dropping it', () => {
    expect(() => toOpenApi30(doc({ A: { type: ['string', 'integer'] } }))).toThrow('components.schemas.A: type ["string","integer"] has no OpenAPI 3.0 rendering');
    expect(() => toOpenApi30(doc({ A: { $ref: '#/components/schemas/B', description: 'x' } }))).toThrow('keywords beside $ref');
    expect(() => toOpenApi30(doc({ A: { type: 'array', prefixItems: [] } }))).toThrow('prefixItems has no OpenAPI 3.0 rendering');
    expect(() => toOpenApi30(doc({ A: { type: 'number', exclusiveMinimum: 0 } }))).toThrow('numeric exclusive bounds');
    expect(() => toOpenApi30({ openapi: '3.0.3', paths: {} })).toThrow('not an OpenAPI 3.1 document');
  });
});
