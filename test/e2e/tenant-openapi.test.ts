import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { baseUrl, request } from '../utils/e2e';

describe(`OpenAPI for the tenant routes (${process.env.E2E_MODE} mode)`, () => {
  let doc: any;
  beforeAll(async () => {
    doc = (await request(`${baseUrl()}/openapi.json`)).body;
  });

  it('documents every path of contract part 4.1', () => {
    const routes = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/tenant/'))
      .flatMap(([path, item]) => Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`));
    expect(routes.sort()).toEqual(
      [
        'GET /tenant/public',
        'GET /tenant/private',
        'GET /tenant/logo',
        'PUT /tenant/update',
        'POST /tenant/upload-logo',
        'POST /tenant/upload-receipt-logo',
        'GET /tenant/webhook-config',
        'PUT /tenant/webhook-config',
      ].sort(),
    );
  });

  it('describes uploads as multipart/form-data with a binary `file`', () => {
    for (const path of ['/tenant/upload-logo', '/tenant/upload-receipt-logo']) {
      const body = doc.paths[path].post.requestBody;
      expect(body.required).toBe(true);
      expect(body.content['multipart/form-data'].schema).toMatchObject({ type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } });
      expect(doc.paths[path].post.responses['200'].content['application/json'].schema).toMatchObject({ type: 'string' });
      expect(doc.paths[path].post.responses['422']).toBeDefined();
    }
  });

  it('derives the bodies from the GraphQL selections, with examples', () => {
    const privateSchema = doc.paths['/tenant/private'].get.responses['200'].content['application/json'];
    expect(Object.keys(privateSchema.schema.properties)).toEqual(expect.arrayContaining(['legalName', 'contactEmail', 'address', 'settings', 'logoUrl', 'receiptLogoUrl']));
    expect(privateSchema.example).toMatchObject({ address: { country: 'US' } });
    expect(Object.keys(doc.paths['/tenant/public'].get.responses['200'].content['application/json'].schema.properties)).toEqual([
      'id', 'name', 'timezone', 'locale', 'currency', 'website', 'phone', 'primaryColor', 'logoUrl', 'receiptLogoUrl',
    ]);
    expect(doc.paths['/tenant/logo'].get.responses['200'].content['application/json'].schema).toMatchObject({ type: ['string', 'null'] });
    const update = doc.paths['/tenant/update'].put.requestBody.content['application/json'];
    expect(update.schema).toEqual({ $ref: '#/components/schemas/UpdateTenantInput' });
    expect(update.example).toBeDefined();
    expect(doc.components.schemas.UpdateTenantInput.additionalProperties).toBe(false);
    const webhook = doc.paths['/tenant/webhook-config'].put;
    expect(webhook.responses['200'].description).toContain('only in the answer that created it');
    expect(Object.keys(webhook.responses['200'].content['application/json'].schema.properties.webhookConfig.properties)).toEqual([
      'url', 'enabled', 'events', 'secret', 'secretHint', 'createdAt', 'updatedAt', 'disabledAt', 'disabledReason',
    ]);
    expect(doc.components.schemas.WebhookConfigInput.properties).toHaveProperty('rotateSecret');
  });
});

describe(`OpenAPI for the public asset route (${process.env.E2E_MODE} mode)`, () => {
  it('documents GET /assets/{asset_id} as public and binary', async () => {
    const doc = (await request(`${baseUrl()}/openapi.json`)).body;
    const get = doc.paths['/assets/{asset_id}'].get;
    expect(get.security).toEqual([]);
    expect(get.responses['200'].content['image/*'].schema).toEqual({ type: 'string', format: 'binary' });
  });

  it("documents the method guard's 405 for every other method, with the Allow the server sends", async () => {
    const doc = (await request(`${baseUrl()}/openapi.json`)).body;
    const item = doc.paths['/assets/{asset_id}'];
    const refused = Object.keys(item).filter((method) => method !== 'get');
    expect(refused.sort()).toEqual(['delete', 'options', 'patch', 'post', 'put', 'trace']);
    for (const method of refused) {
      const responses = item[method].responses;
      expect([method, Object.keys(responses)]).toEqual([method, ['405', '429']]);
      expect(item[method].security).toEqual([]);
      const allow = responses['405'].headers.Allow.schema.const;
      expect(allow).toBe('GET, HEAD');
      // What the document says is what the server answers (TRACE too, which fetch will not send).
      const answer = await rawRequest(method.toUpperCase(), `${baseUrl()}/assets/${randomUUID()}`);
      expect([method, answer.status, answer.allow, answer.body]).toEqual([method, 405, allow, { detail: 'Method Not Allowed' }]);
    }
  });

  it('gives contract paths no 405 (only the platform\'s own: logos and the audit export): a method the contract does not list there is the 404 of an unknown route', async () => {
    const doc = (await request(`${baseUrl()}/openapi.json`)).body;
    const withRefusals = Object.entries<any>(doc.paths).filter(([, item]) => Object.values<any>(item).some((operation) => operation.responses['405']));
    expect(withRefusals.map(([path]) => path).sort()).toEqual(['/assets/{asset_id}', '/audit/events/export']);
    expect((await rawRequest('DELETE', `${baseUrl()}/tenant/public`)).status).toBe(404);
  });
});

/** One request by node:http, which sends any method; its status, `Allow` and JSON body. */
function rawRequest(method: string, url: string): Promise<{ status: number; allow: string | undefined; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode!, allow: res.headers.allow, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end();
  });
}
