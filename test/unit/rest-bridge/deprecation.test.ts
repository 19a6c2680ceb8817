import { buildSchema } from 'graphql';
import { deprecationGuard, deprecationHeaders, utcDay } from '../../../rest-bridge/deprecation';
import { buildOpenApiDocument } from '../../../rest-bridge/openapi';
import type { RouteDefinition } from '../../../rest-bridge/types';

const route: RouteDefinition = {
  method: 'GET',
  path: '/old/things',
  operationId: 'oldThings',
  summary: 'Old things',
  tag: 'Old',
  document: 'query { things }',
  result: (data) => data.things,
  deprecated: { since: '2026-11-01', sunset: '2027-05-01', link: 'https://example.test/changelog#things' },
};

describe('REST deprecation', () => {
  it('writes Deprecation as an RFC 9745 date, Sunset as an HTTP-date and the Link', () => {
    const headers = deprecationHeaders(route.deprecated!);
    expect(headers.Deprecation).toBe(`@${Date.UTC(2026, 10, 1) / 1000}`);
    expect(headers.Sunset).toBe('Sat, 01 May 2027 00:00:00 GMT');
    expect(new Date(headers.Sunset).toISOString()).toBe('2027-05-01T00:00:00.000Z');
    expect(headers.Link).toBe('<https://example.test/changelog#things>; rel="deprecation"');
    expect(deprecationHeaders({ since: '2026-11-01', sunset: '2027-05-01' })).not.toHaveProperty('Link');
  });

  it('refuses at start-up a day that does not exist, a sunset not after the deprecation and a bad link', () => {
    expect(() => utcDay('2027-02-30')).toThrow('is not a YYYY-MM-DD day');
    expect(() => deprecationGuard({ ...route, deprecated: { since: '2026-11-01', sunset: '2026-11-01' } })).toThrow('REST route GET /old/things: deprecated: sunset 2026-11-01 is not after 2026-11-01');
    expect(() => deprecationGuard({ ...route, deprecated: { since: '2026-11-01', sunset: '2027-01-01', link: 'not a url' } })).toThrow('REST route GET /old/things');
    expect(deprecationGuard({ ...route, deprecated: undefined })).toBeNull();
  });

  it('marks the OpenAPI operation deprecated, with its sunset and headers on every response', () => {
    const doc = buildOpenApiDocument([route, { ...route, path: '/new/things', operationId: 'newThings', deprecated: undefined }], buildSchema('type Query { things: [String!]! }')) as any;
    const old = doc.paths['/old/things'].get;
    expect(old).toMatchObject({ deprecated: true, 'x-sunset': '2027-05-01' });
    expect(old.description).toContain('2027-05-01');
    for (const response of Object.values<any>(old.responses)) {
      expect(response.headers).toMatchObject({ Deprecation: { $ref: '#/components/headers/Deprecation' }, Sunset: { $ref: '#/components/headers/Sunset' }, Link: { $ref: '#/components/headers/Link' } });
    }
    const current = doc.paths['/new/things'].get;
    expect(current.deprecated).toBeUndefined();
    expect(current.responses['200'].headers.Deprecation).toBeUndefined();
  });
});
