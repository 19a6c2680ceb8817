import { buildSchema } from 'graphql';
import { releaseRefusal } from '../../../../gateway/tools/api-release';
import { recordedBreaking, releasedVersions, unreleasedSection } from '../../../../gateway/tools/changelog';
import { covers, graphChanges, refusals, restChanges, routeOfLocation, sunsetOfReason } from '../../../../gateway/tools/contract-diff';
import { buildOpenApiDocument, type DocumentedRoute } from '../../../../rest-bridge/openapi';

const changelog = (breaking: string[]) => `# Changelog

## [Unreleased]

### Added

- \`Query.notBreaking\` is named here, outside the Breaking list.

### Breaking

${breaking.map((line) => `- ${line}`).join('\n')}

### Fixed

- \`Query.fixed\` is not breaking either.

## [1.0.0] - 2026-11-28

### Breaking

- \`Query.released\` went with 1.0.0.
`;

const today = new Date('2026-11-28T12:00:00Z');

describe('CHANGELOG.md parsing', () => {
  it('reads the code spans under Unreleased / Breaking only', () => {
    expect(recordedBreaking(changelog(['`Query.widgets` removed: use `Query.dashboards`', 'route `GET /tenant/public` gone']))).toEqual([
      'Query.widgets',
      'Query.dashboards',
      'GET /tenant/public',
    ]);
  });

  it('reads nothing when the Unreleased section has no Breaking heading, and refuses a changelog without Unreleased', () => {
    expect(recordedBreaking('# Changelog\n\n## [Unreleased]\n\n### Added\n\n- `Query.x`\n\n## [1.0.0]\n')).toEqual([]);
    expect(() => unreleasedSection('# Changelog\n\n## [1.0.0]\n')).toThrow('no "## [Unreleased]" section');
    expect(unreleasedSection('## Unreleased\nline\n## [1.0.0]\nother')).toEqual(['line']);
  });

  it('lists the released versions', () => {
    expect(releasedVersions(changelog([]) + '\n## [0.9.0-rc.1] - 2026-10-01\n')).toEqual(['1.0.0', '0.9.0-rc.1']);
  });
});

describe('the graph diff and the verdict', () => {
  const before = `
    type Query {
      dashboard(id: ID!): Dashboard
      widgets: [String!]! @deprecated(reason: "Use dashboard. Sunset 2026-06-01.")
      legacy: String @deprecated(reason: "Use dashboard. Sunset 2027-06-01.")
    }
    type Dashboard { id: ID! name: String! }
  `;

  it('passes an added field (non-breaking) with nothing recorded', async () => {
    const changes = await graphChanges(before, before.replace('name: String!', 'name: String! title: String'));
    expect(changes).toEqual([expect.objectContaining({ surface: 'graph', criticality: 'NON_BREAKING', coordinate: 'Dashboard.title' })]);
    expect(refusals(changes, [], today)).toEqual([]);
  });

  it('fails a removed field unless the changelog records it (the field or something containing it)', async () => {
    const changes = await graphChanges(before, before.replace('name: String!', ''));
    expect(changes).toEqual([expect.objectContaining({ criticality: 'BREAKING', coordinate: 'Dashboard.name' })]);
    expect(refusals(changes, [], today)).toEqual([{ change: changes[0], reason: expect.stringContaining('not recorded') }]);
    expect(refusals(changes, ['Dashboard.names'], today)).toHaveLength(1);
    expect(refusals(changes, ['Dashboard.name'], today)).toEqual([]);
    expect(refusals(changes, ['Dashboard'], today)).toEqual([]);
  });

  it('fails a changed argument type at its coordinate', async () => {
    const changes = await graphChanges(before, before.replace('dashboard(id: ID!)', 'dashboard(id: Int!)'));
    expect(changes.map((c) => [c.criticality, c.coordinate])).toEqual([['BREAKING', 'Query.dashboard.id']]);
    expect(refusals(changes, ['Query.dashboard.id'], today)).toEqual([]);
  });

  it('allows removing a deprecated field past its sunset only when recorded, and never before its sunset', async () => {
    const gone = await graphChanges(before, before.replace(/widgets:.*\n/, ''));
    expect(gone).toEqual([expect.objectContaining({ criticality: 'BREAKING', coordinate: 'Query.widgets', sunset: '2026-06-01' })]);
    expect(refusals(gone, [], today)).toHaveLength(1);
    expect(refusals(gone, ['Query.widgets'], today)).toEqual([]);

    const early = await graphChanges(before, before.replace(/legacy:.*\n/, ''));
    expect(early[0]).toMatchObject({ coordinate: 'Query.legacy', sunset: '2027-06-01' });
    expect(refusals(early, ['Query.legacy'], today)).toEqual([{ change: early[0], reason: expect.stringContaining('sunset 2027-06-01') }]);
    expect(refusals(early, ['Query.legacy'], new Date('2027-06-01T00:00:00Z'))).toEqual([]);
  });

  it('reads the sunset day out of a deprecation reason', () => {
    expect(sunsetOfReason('Use dashboards. Sunset: 2027-01-31.')).toBe('2027-01-31');
    expect(sunsetOfReason('No longer supported')).toBeUndefined();
    expect(sunsetOfReason(null)).toBeUndefined();
  });
});

describe('the REST diff (openapi-diff) and the verdict', () => {
  const schema = buildSchema(`
    type Widget { id: ID! title: String! }
    input WidgetInput { title: String! note: String }
    type Query { widget(id: ID!): Widget widgets: [Widget!]! }
    type Mutation { updateWidget(id: ID!, input: WidgetInput!): Widget }
  `);
  const get: DocumentedRoute = {
    method: 'GET',
    path: '/widgets/{widget_id}',
    operationId: 'getWidget',
    summary: 'A widget',
    tag: 'Widgets',
    document: 'query ($id: ID!) { widget(id: $id) { id title } }',
    pathParams: { widget_id: 'id' },
    result: (data) => data.widget,
  };
  const list: DocumentedRoute = { method: 'GET', path: '/widgets', operationId: 'listWidgets', summary: 'Widgets', tag: 'Widgets', document: 'query { widgets { id } }', result: (data) => data.widgets };
  const put: DocumentedRoute = {
    method: 'PUT',
    path: '/widgets/{widget_id}',
    operationId: 'updateWidget',
    summary: 'Update',
    tag: 'Widgets',
    document: 'mutation ($id: ID!, $input: WidgetInput!) { updateWidget(id: $id, input: $input) { id } }',
    pathParams: { widget_id: 'id' },
    body: { variable: 'input', required: true },
    result: (data) => data.updateWidget,
  };
  const doc = (routes: DocumentedRoute[]) => buildOpenApiDocument(routes, schema);

  it('passes an added route (non-breaking) with nothing recorded', async () => {
    const changes = await restChanges(doc([get]), doc([get, list]));
    expect(changes).toEqual([expect.objectContaining({ surface: 'rest', criticality: 'NON_BREAKING', coordinate: 'GET /widgets' })]);
    expect(refusals(changes, [], today)).toEqual([]);
  });

  it('fails a removed method unless recorded by its method and path (or the path)', async () => {
    const changes = await restChanges(doc([get, put]), doc([get]));
    const breaking = changes.filter((c) => c.criticality === 'BREAKING');
    expect(breaking.map((c) => c.coordinate)).toEqual(['PUT /widgets/{widget_id}']);
    expect(refusals(changes, [], today)).toHaveLength(1);
    expect(refusals(changes, ['GET /widgets/{widget_id}'], today)).toHaveLength(1);
    expect(refusals(changes, ['PUT /widgets/{widget_id}'], today)).toEqual([]);
    expect(refusals(changes, ['/widgets/{widget_id}'], today)).toEqual([]);
  });

  it('fails a success body that loses a field the client read', async () => {
    const slimmer = { ...get, document: 'query ($id: ID!) { widget(id: $id) { id } }' };
    const changes = await restChanges(doc([get]), doc([slimmer]));
    expect(changes.filter((c) => c.criticality === 'BREAKING').map((c) => c.coordinate)).toEqual(['GET /widgets/{widget_id}']);
  });

  it('refuses removing a deprecated route before its sunset, recorded or not; allows it after, recorded', async () => {
    const deprecated = { ...list, deprecated: { since: '2026-01-01', sunset: '2027-01-01' } };
    const changes = await restChanges(doc([get, deprecated]), doc([get]));
    expect(changes).toEqual([expect.objectContaining({ criticality: 'BREAKING', coordinate: 'GET /widgets', sunset: '2027-01-01' })]);
    expect(refusals(changes, ['/widgets'], today)).toEqual([{ change: changes[0], reason: expect.stringContaining('sunset 2027-01-01') }]);
    const later = new Date('2027-02-01T00:00:00Z');
    expect(refusals(changes, [], later)).toHaveLength(1);
    expect(refusals(changes, ['GET /widgets'], later)).toEqual([]);
    expect(refusals(changes, ['/widgets'], later)).toEqual([]);
  });

  it('names routes from openapi-diff locations', () => {
    expect(routeOfLocation('paths./tenant/update.put.requestBody.content.application/json.schema')).toBe('PUT /tenant/update');
    expect(routeOfLocation('paths./tenant/public')).toBe('/tenant/public');
    expect(routeOfLocation('paths./a/{b}.delete')).toBe('DELETE /a/{b}');
    expect(routeOfLocation('x-webhooks')).toBe('x-webhooks');
    expect(covers('Query', 'Query.a.b')).toBe(true);
    expect(covers('Query.a', 'Query.ab')).toBe(false);
    expect(covers('/a', 'GET /a')).toBe(true);
    expect(covers('/a', 'GET /a/b')).toBe(false);
  });
});

describe('cutting a release (npm run api:release)', () => {
  const log = '# Changelog\n\n## [Unreleased]\n\n## [2.0.0] - 2027-01-01\n\n## [1.1.0] - 2026-12-01\n\n## [1.0.0] - 2026-11-28\n';
  const breaking = { surface: 'graph' as const, criticality: 'BREAKING' as const, coordinate: 'Query.widgets', message: 'removed' };
  const added = { ...breaking, criticality: 'NON_BREAKING' as const, coordinate: 'Query.dashboards' };

  it('files a first release, and a later one with only compatible changes in a minor', () => {
    expect(releaseRefusal('1.0.0', log)).toBeNull();
    expect(releaseRefusal('1.1.0', log, { version: '1.0.0', changes: [added] })).toBeNull();
  });

  it('refuses breaking changes outside a new major, a version without a changelog entry and one not above the last', () => {
    expect(releaseRefusal('1.1.0', log, { version: '1.0.0', changes: [added, breaking] })).toBe('1 breaking change(s) since 1.0.0 need a new major version, not 1.1.0: Query.widgets');
    expect(releaseRefusal('2.0.0', log, { version: '1.1.0', changes: [breaking] })).toBeNull();
    expect(releaseRefusal('1.2.0', log, { version: '1.1.0', changes: [] })).toContain('no "## [1.2.0]" entry');
    expect(releaseRefusal('1.0.0', log, { version: '1.1.0', changes: [] })).toContain('not above the last release, 1.1.0');
    expect(releaseRefusal('one', log)).toContain('not semver');
  });
});
