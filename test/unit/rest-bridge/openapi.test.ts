import { buildSchema } from 'graphql';
import { buildOpenApiDocument, DocumentedRoute } from '../../../rest-bridge/openapi';

const schema = buildSchema(`
  scalar DateTime
  enum SortDirection { ASC DESC }
  enum CardStatus { PENDING ACTIVE }
  interface Node { id: ID! }
  type Widget implements Node {
    id: ID!
    title: String!
    note: String
    createdAt: DateTime!
    tags: [String!]!
    status: CardStatus
  }
  type WidgetPage { items: [Widget!]! total: Int! page: Int }
  input WidgetUpdateInput {
    title: String!
    note: String
    weight: Float = 1.5
    status: CardStatus
    startsAt: DateTime
  }
  type Query {
    widgets(dashboardId: ID!, page: Int, perPage: Int, sortDirection: SortDirection, ids: [ID!], active: Boolean): WidgetPage!
  }
  type Mutation {
    updateWidget(id: ID!, input: WidgetUpdateInput!): Widget
    deleteWidget(id: ID!): Boolean!
  }
`);

const routes: DocumentedRoute[] = [
  {
    method: 'GET',
    path: '/analytics/dashboards/{dashboard_id}/widgets',
    operationId: 'listWidgets',
    summary: 'List widgets',
    tag: 'Analytics',
    document: `query ($dashboardId: ID!, $page: Int = 1, $perPage: Int!, $sort: SortDirection = DESC, $ids: [ID!], $active: Boolean) {
      list: widgets(dashboardId: $dashboardId, page: $page, perPage: $perPage, sortDirection: $sort, ids: $ids, active: $active) {
        items { ...WidgetFields kind: __typename }
        total
        page
      }
      other: widgets(dashboardId: $dashboardId) { total }
    }
    fragment WidgetFields on Widget { id title note createdAt tags status ... on Node { id } }`,
    pathParams: { dashboard_id: 'dashboardId' },
    queryParams: { page: 'page', per_page: 'perPage', sort_direction: 'sort', ids: 'ids', active: 'active' },
    result: (data) => data.list,
  },
  {
    method: 'PUT',
    path: '/analytics/widgets/{widget_id}',
    operationId: 'updateWidget',
    summary: 'Update a widget',
    tag: 'Analytics',
    document: `mutation ($id: ID!, $input: WidgetUpdateInput!) { updateWidget(id: $id, input: $input) { id title } }`,
    pathParams: { widget_id: 'id' },
    body: { variable: 'input', required: true },
    result: (data) => data.updateWidget,
    responseDescription: 'The widget as updated',
  },
  {
    method: 'DELETE',
    path: '/analytics/widgets/{widget_id}',
    operationId: 'deleteWidget',
    summary: 'Delete a widget',
    tag: 'Widgets',
    document: `mutation ($id: ID!) { deleteWidget(id: $id) }`,
    pathParams: { widget_id: 'id' },
    status: 204,
    result: () => undefined,
  },
];

const doc = buildOpenApiDocument(routes, schema, { serverUrl: 'https://api.example.test' }) as any;
const listOp = doc.paths['/analytics/dashboards/{dashboard_id}/widgets'].get;
const param = (name: string) => listOp.parameters.find((p: any) => p.name === name);

describe('buildOpenApiDocument', () => {
  it('writes the document header, servers, security and tags', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Healthcare Practice Platform API', version: '1.0' });
    expect(doc.servers).toEqual([{ url: 'https://api.example.test' }]);
    expect(doc.security).toEqual([{ tenant: [], apiKey: [] }]);
    expect(doc.components.securitySchemes).toEqual({
      tenant: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'TENANT' }),
      apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'API-KEY' }),
    });
    // A tag of the route table's own vocabulary is described; an unknown one (Widgets) is left for the linter to refuse.
    expect(doc.tags).toEqual([{ name: 'Analytics', description: expect.any(String) }, { name: 'Widgets' }]);
    expect(listOp).toMatchObject({ operationId: 'listWidgets', summary: 'List widgets', tags: ['Analytics'] });
  });

  it('describes path and query parameters from the variable types', () => {
    expect(param('dashboard_id')).toEqual({ name: 'dashboard_id', in: 'path', required: true, schema: { type: 'string' } });
    expect(param('page')).toEqual({ name: 'page', in: 'query', required: false, schema: { type: ['integer', 'null'], default: 1 } });
    expect(param('per_page')).toMatchObject({ required: true, schema: { type: 'integer' } });
    expect(param('sort_direction')).toMatchObject({
      required: false,
      schema: { type: ['string', 'null'], enum: ['asc', 'desc', null], default: 'desc' },
    });
    expect(param('ids')).toMatchObject({
      required: false,
      style: 'form',
      explode: true,
      schema: { type: ['array', 'null'], items: { type: 'string' } },
    });
    expect(param('active').schema).toEqual({ type: ['boolean', 'null'] });
  });

  it('derives the success body from the first root field, with aliases, fragments and __typename', () => {
    const schemaOf200 = listOp.responses['200'].content['application/json'].schema;
    expect(schemaOf200).toMatchObject({ type: 'object', required: ['items', 'total', 'page'] });
    expect(schemaOf200.properties.page).toEqual({ type: ['integer', 'null'] });
    const item = schemaOf200.properties.items.items;
    expect(item.required).toEqual(['id', 'title', 'note', 'createdAt', 'tags', 'status', 'kind']);
    expect(item.properties).toEqual({
      id: { type: 'string' },
      title: { type: 'string' },
      note: { type: ['string', 'null'] },
      createdAt: { type: 'string', format: 'date-time' },
      tags: { type: 'array', items: { type: 'string' } },
      status: { type: ['string', 'null'], enum: ['PENDING', 'ACTIVE', null] },
      kind: { type: 'string', const: 'Widget' },
    });
  });

  it('references the input type as the request body, with required fields and no extra ones', () => {
    const put = doc.paths['/analytics/widgets/{widget_id}'].put;
    expect(put.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/WidgetUpdateInput' } } },
    });
    expect(doc.components.schemas.WidgetUpdateInput).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string' },
        note: { type: ['string', 'null'] },
        weight: { type: ['number', 'null'], default: 1.5 },
        status: { type: ['string', 'null'], enum: ['PENDING', 'ACTIVE', null] },
        startsAt: { type: ['string', 'null'], format: 'date-time' },
      },
      required: ['title'],
      additionalProperties: false,
    });
    expect(put.responses['200']).toMatchObject({
      description: 'The widget as updated',
      content: {
        'application/json': {
          schema: { type: ['object', 'null'], properties: { id: { type: 'string' }, title: { type: 'string' } } },
        },
      },
    });
  });

  it('sends no content for a 204 route', () => {
    const del = doc.paths['/analytics/widgets/{widget_id}'].delete;
    expect(del.responses['204'].content).toBeUndefined();
    expect(del.responses['200']).toBeUndefined();
    expect(del.responses['204'].headers['X-Request-Id']).toEqual({ $ref: '#/components/headers/X-Request-Id' });
  });

  it('lists the shared error responses, 409 only on writes, 400/413/415 only where a body is read, 503 everywhere', () => {
    expect(Object.keys(listOp.responses)).toEqual(['200', '401', '403', '404', '414', '422', '429', '431', '500', '503']);
    // An outage of what the route depends on (docs/api.md, Errors): with Retry-After.
    expect(Object.keys(listOp.responses['503'].headers)).toContain('Retry-After');
    const put = doc.paths['/analytics/widgets/{widget_id}'].put;
    expect(Object.keys(put.responses)).toEqual(['200', '400', '401', '403', '404', '409', '413', '414', '415', '422', '429', '431', '500', '503']);
    for (const status of ['400', '413', '414', '415', '431']) {
      expect(put.responses[status].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorDetail' });
    }
    expect(put.responses['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/HTTPValidationError' });
    expect(put.responses['404'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorDetail' });
    expect(doc.components.schemas.HTTPValidationError.properties.detail.items).toEqual({
      $ref: '#/components/schemas/ValidationErrorElement',
    });
    expect(doc.components.schemas.ValidationErrorElement.required).toEqual(['type', 'loc', 'msg']);
  });

  it('declares the rate-limit and request-id headers on every response, Retry-After on 429', () => {
    const names = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit-Policy', 'RateLimit', 'X-Request-Id'];
    for (const response of Object.values<any>(listOp.responses)) {
      expect(Object.keys(response.headers)).toEqual(expect.arrayContaining(names));
    }
    expect(listOp.responses['429'].headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    expect(listOp.responses['200'].headers['Retry-After']).toBeUndefined();
    for (const name of [...names, 'Retry-After']) expect(doc.components.headers[name].schema).toBeDefined();
  });

  it('honours an explicit responseSchema and rejects a route without a variable for its placeholder', () => {
    const custom = buildOpenApiDocument([{ ...routes[1], responseSchema: { type: 'string' } }], schema) as any;
    expect(custom.paths['/analytics/widgets/{widget_id}'].put.responses['200'].content['application/json'].schema).toEqual({
      type: 'string',
    });
    expect(custom.servers).toBeUndefined();
    expect(() => buildOpenApiDocument([{ ...routes[2], pathParams: {} }], schema)).toThrow(
      'Route deleteWidget: no operation variable for path parameter widget_id',
    );
  });
});
