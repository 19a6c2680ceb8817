import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { baseUrl, createTestTenant, request, type TestTenant } from '../utils/e2e';
import sharp from 'sharp';
import { IMAGE_FORMATS, makeImage, NOT_IMAGES, pngOfExactly, pngSignatureAndZeros, type ImageFormat } from '../subgraphs/tenant/image-fixtures';

const MAX = 2 * 1024 * 1024;

/** POSTs a multipart form with one file part (or a raw body when `raw` is given). */
function upload(tenant: TestTenant, path: string, file: Buffer | null, options: { field?: string; filename?: string; type?: string } = {}) {
  const form = new FormData();
  if (file) form.append(options.field ?? 'file', new Blob([file], { type: options.type ?? 'image/png' }), options.filename ?? 'logo.png');
  else form.append('note', 'no file here');
  return request(`${baseUrl()}${path}`, { method: 'POST', headers: tenant.headers, body: form });
}

const fileError = (reason: string, input: unknown = 'logo.png') => ({
  detail: [{ type: 'value_error', loc: ['body', 'file'], msg: `Value error, ${reason}`, input, ctx: { error: reason } }],
});
const NOT_AN_IMAGE = 'file must be a PNG, JPEG, WebP or GIF image (judged by its content, not its name or declared type)';

describe(`tenant logos over REST (${process.env.E2E_MODE} mode)`, () => {
  const IMAGES = {} as Record<ImageFormat, Buffer>;
  beforeAll(async () => {
    for (const format of IMAGE_FORMATS) IMAGES[format] = await makeImage(format);
  });

  it('GET /tenant/logo is null before any upload', async () => {
    const tenant = await createTestTenant();
    const res = await tenant.get('/tenant/logo');
    expect(res.status).toBe(200);
    expect(res.text).toBe('null');
  });

  it.each(IMAGE_FORMATS)('uploads a %s; the URL serves the re-encoded bytes publicly with immutable headers', async (kind) => {
    const tenant = await createTestTenant();
    const bytes = IMAGES[kind];
    // The declared type is a lie on purpose: the stored type comes from the bytes.
    const res = await upload(tenant, '/tenant/upload-logo', bytes, { type: 'text/plain', filename: `logo.${kind}` });
    expect(res.status).toBe(200);
    const url: string = res.body;
    expect(url).toMatch(new RegExp(`^${baseUrl()}/assets/[0-9a-f-]{36}$`));
    expect((await tenant.get('/tenant/logo')).body).toBe(url);
    expect((await tenant.get('/tenant/public')).body).toMatchObject({ logoUrl: url, receiptLogoUrl: null });
    expect((await tenant.get('/tenant/private')).body).toMatchObject({ logoUrl: url, receiptLogoUrl: null });

    const asset = await fetch(url); // no TENANT, no API-KEY
    expect(asset.status).toBe(200);
    const served = Buffer.from(await asset.arrayBuffer());
    expect(await sharp(served).metadata()).toMatchObject({ format: kind, width: 16, height: 12 });
    // The ETag is the hash of the bytes served (the re-encoded ones), not of the upload.
    const sha = createHash('sha256').update(served).digest('hex');
    expect(Object.fromEntries(['content-type', 'content-length', 'cache-control', 'x-content-type-options', 'etag'].map((h) => [h, asset.headers.get(h)]))).toEqual({
      'content-type': kind === 'jpeg' ? 'image/jpeg' : `image/${kind}`,
      'content-length': String(served.length),
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      etag: `"${sha}"`,
    });
    expect(asset.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const revalidated = await fetch(url, { headers: { 'if-none-match': `"${sha}"` } });
    expect(revalidated.status).toBe(304);
  });

  it('keeps the receipt logo apart from the logo, and dedupes identical bytes', async () => {
    const tenant = await createTestTenant();
    const receipt = await upload(tenant, '/tenant/upload-receipt-logo', IMAGES.gif);
    expect(receipt.status).toBe(200);
    expect((await tenant.get('/tenant/logo')).body).toBeNull();
    expect((await tenant.get('/tenant/public')).body.receiptLogoUrl).toBe(receipt.body);
    const logo = await upload(tenant, '/tenant/upload-logo', IMAGES.gif);
    expect(logo.body).toBe(receipt.body);
    const graph = await tenant.graphql('{ logo: tenantLogo receipt: tenantLogo(kind: RECEIPT) }');
    expect(graph.body.data).toEqual({ logo: receipt.body, receipt: receipt.body });
  });

  it.each([
    ['an SVG', NOT_IMAGES.svg, 'SVG images are not accepted (they can carry scripts); upload a PNG, JPEG, WebP or GIF image'],
    ['a PDF named .png', NOT_IMAGES.pdf, NOT_AN_IMAGE],
    ['text named .png', NOT_IMAGES.text, NOT_AN_IMAGE],
    ['PNG magic bytes out of place', null, NOT_AN_IMAGE],
    ['a PNG signature followed by 2 MiB of zeros', pngSignatureAndZeros(), NOT_AN_IMAGE],
  ])('refuses %s at ["body","file"] and keeps the old logo', async (_name, given, reason) => {
    const bytes = given ?? Buffer.concat([Buffer.from('xx'), IMAGES.png]);
    const tenant = await createTestTenant();
    const first = (await upload(tenant, '/tenant/upload-logo', IMAGES.png)).body;
    const res = await upload(tenant, '/tenant/upload-logo', bytes, { type: 'image/png' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(fileError(reason));
    expect((await tenant.get('/tenant/logo')).body).toBe(first);
  });

  it('refuses a missing file, and a body that is not multipart, with `missing`', async () => {
    const tenant = await createTestTenant();
    const missing = { detail: [{ type: 'missing', loc: ['body', 'file'], msg: 'Field required', input: null }] };
    expect(await upload(tenant, '/tenant/upload-logo', null)).toMatchObject({ status: 422, body: missing });
    expect(await upload(tenant, '/tenant/upload-receipt-logo', IMAGES.png, { field: 'logo' })).toMatchObject({ status: 422, body: missing });
    const json = await request(`${baseUrl()}/tenant/upload-logo`, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: '{"file": "x"}' });
    expect(json).toMatchObject({ status: 422, body: missing });
    const raw = await request(`${baseUrl()}/tenant/upload-logo`, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'image/png' }, body: IMAGES.png });
    expect(raw).toMatchObject({ status: 422, body: missing });
  });

  it('takes a real image of exactly 2 MiB (base64 through the whole graph) and refuses one byte more', async () => {
    const tenant = await createTestTenant();
    const exact = await pngOfExactly(MAX);
    expect(exact.length).toBe(MAX);
    const ok = await upload(tenant, '/tenant/upload-logo', exact);
    expect(ok.status).toBe(200);
    const served = Buffer.from(await (await fetch(ok.body)).arrayBuffer());
    expect(await sharp(served).metadata()).toMatchObject({ format: 'png', width: (await sharp(exact).metadata()).width });
    const over = await upload(tenant, '/tenant/upload-logo', Buffer.concat([exact, Buffer.from([0])]), { filename: 'big.png' });
    expect(over).toMatchObject({ status: 422, body: fileError(`file must be at most ${MAX} bytes`, 'big.png') });
  });

  it('answers an oversized upload before the client has sent the whole body', async () => {
    const tenant = await createTestTenant();
    const boundary = 'e2e-boundary-9f8e7d';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.png"\r\nContent-Type: image/png\r\n\r\n`);
    const status = await new Promise<{ code: number; connection?: string; body: string }>((resolve, reject) => {
      const req = httpRequest(`${baseUrl()}/tenant/upload-logo`, {
        method: 'POST',
        headers: { ...tenant.headers, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + 64 * 1024 * 1024) },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => {
          resolve({ code: res.statusCode!, connection: res.headers.connection, body });
          req.destroy();
        });
      });
      // 2 MiB and a bit of a promised 64 MiB; the rest never comes.
      req.write(Buffer.concat([head, IMAGES.png, Buffer.alloc(MAX + 64 * 1024)]));
    });
    expect(status.code).toBe(422);
    expect(status.connection).toBe('close');
    expect(JSON.parse(status.body)).toEqual(fileError(`file must be at most ${MAX} bytes`, 'huge.png'));
  });

  it('serves 404 JSON for unknown and malformed asset ids, without credentials', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id', '00000000-0000-4000-8000-00000000000g', '%ZZ']) {
      const res = await request(`${baseUrl()}/assets/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not Found' });
    }
  });

  it("never shows one tenant another's logo", async () => {
    const [a, b] = await Promise.all([createTestTenant('Logo A'), createTestTenant('Logo B')]);
    const urlA = (await upload(a, '/tenant/upload-logo', IMAGES.webp)).body;
    expect((await b.get('/tenant/logo')).body).toBeNull();
    const urlB = (await upload(b, '/tenant/upload-logo', IMAGES.webp)).body;
    expect(urlB).not.toBe(urlA);
    expect((await a.get('/tenant/logo')).body).toBe(urlA);
  });

  it('GraphQL setTenantLogo takes the same file as base64 and judges it the same way', async () => {
    const tenant = await createTestTenant();
    const mutation = 'mutation($f: UploadedFileInput!) { setTenantLogo(file: $f) }';
    const ok = await tenant.graphql(mutation, { f: { filename: 'logo.jpg', base64: IMAGES.jpeg.toString('base64') } });
    expect(ok.body.data.setTenantLogo).toBe((await tenant.get('/tenant/logo')).body);
    const svg = await tenant.graphql(mutation, { f: { filename: 'logo.svg', base64: NOT_IMAGES.svg.toString('base64') } });
    expect(svg.body.errors[0].extensions.validation[0]).toMatchObject({ type: 'value_error', loc: ['file'] });
  });
});
