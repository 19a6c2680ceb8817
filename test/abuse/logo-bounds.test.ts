/**
 * Abuse suite, bounded logos (issue 31, finding 2). A PNG whose rows are stored with the Up filter
 * compresses a gradient to almost nothing: 44 KB for 3072x3072 pixels, which the old re-encoding
 * (no filters, full size) stored as 28 MB and `/assets/{id}` served to anyone, as often as asked.
 * Logos are now resized to fit inside 1024x1024 and stored no larger than the 2 MiB upload cap;
 * the public route counts every request against the client address's anonymous budget and
 * revalidates by ETag; a logo stored oversized before the fix is re-encoded by a migration and
 * never served as it was.
 */
import { createHash, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { LOGO_MAX_BYTES } from '../../schema/upload-limits';
import { Migration20261215000000_bounded_logos } from '../../subgraphs/tenant/migrations/Migration20261215000000_bounded_logos';
import { checkLogoImage } from '../../subgraphs/tenant/services/logo-image';
import type { TenantDeps } from '../../subgraphs/tenant/tenant-deps';
import { LOGO_DECODES_AT_ONCE, LOGO_DECODES_QUEUED_PER_TENANT } from '../../subgraphs/tenant/logo-limits';
import { FairShare } from '../../platform/fair-share';
import { noiseImage } from '../subgraphs/tenant/image-fixtures';
import { baseUrl, createTestTenant, request, type TestTenant } from '../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';

jest.setTimeout(120_000);

/** The finding's upload, made once: about 44 KB of PNG for 3072x3072 pixels. */
let gradient: Promise<Buffer> | undefined;
const findingUpload = () => (gradient ??= upFilteredGradient(3072, 3));

/** The bound a stored logo must fit inside (docs/api.md, Logos). */
const STORED_SIDE = 1024;

/**
 * A square PNG whose rows are one random row plus `step * y`: with the Up filter every row after
 * the first is a constant, so the file is tiny, while unfiltered each row is noise.
 */
function upFilteredGradient(side: number, channels: 3 | 4, step = 1): Promise<Buffer> {
  const rowBytes = side * channels;
  const row = Buffer.alloc(rowBytes);
  for (let i = 0; i < rowBytes; i++) row[i] = (Math.random() * 256) | 0;
  const pixels = Buffer.alloc(rowBytes * side);
  for (let y = 0; y < side; y++) {
    const offset = y * rowBytes;
    for (let i = 0; i < rowBytes; i++) pixels[offset + i] = (row[i] + step * y) & 255;
  }
  // Adaptive filtering picks Up for every row here, as a hostile (or merely thorough) encoder would.
  return sharp(pixels, { raw: { width: side, height: side, channels } }).png({ adaptiveFiltering: true, compressionLevel: 9 }).toBuffer();
}

/** POSTs one file as multipart form data to a logo route. */
function upload(base: string, tenant: TestTenant, file: Buffer, path = '/tenant/upload-logo') {
  const form = new FormData();
  form.append('file', new Blob([file], { type: 'image/png' }), 'logo.png');
  return request(`${base}${path}`, { method: 'POST', headers: tenant.headers, body: form });
}

/** The stored bytes behind a logo URL, fetched without credentials. */
async function served(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe(`logos are stored bounded (${process.env.E2E_MODE} mode)`, () => {
  it('stores the 44 KB Up-filtered 3072x3072 PNG within the cap and 1024x1024, over REST and GraphQL', async () => {
    const hostile = await findingUpload();
    expect(hostile.length).toBeLessThan(64 * 1024);
    // What the old pipeline made of it: the finding's 28 MB.
    expect((await sharp(hostile).png().toBuffer()).length).toBeGreaterThan(20 * 1024 * 1024);

    const tenant = await createTestTenant();
    const res = await upload(baseUrl(), tenant, hostile);
    expect(res.status).toBe(200);
    const { res: asset, bytes } = await served(res.body);
    expect(asset.status).toBe(200);
    expect(bytes.length).toBeLessThanOrEqual(LOGO_MAX_BYTES);
    expect(Number(asset.headers.get('content-length'))).toBe(bytes.length);
    expect(asset.headers.get('content-type')).toBe('image/png');
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'png', width: STORED_SIDE, height: STORED_SIDE });

    const graph = await tenant.graphql('mutation($f: UploadedFileInput!) { setTenantLogo(kind: RECEIPT, file: $f) }', {
      f: { filename: 'receipt.png', base64: hostile.toString('base64') },
    });
    expect(graph.body.errors).toBeUndefined();
    const receipt = await served(graph.body.data.setTenantLogo);
    expect(receipt.bytes.length).toBeLessThanOrEqual(LOGO_MAX_BYTES);
    expect(await sharp(receipt.bytes).metadata()).toMatchObject({ format: 'png', width: STORED_SIDE, height: STORED_SIDE });
  });

  it('falls back to a palette when the resized pixels would still not fit in the cap', async () => {
    // 30 KB uploaded; resized to 1024x1024 its RGBA pixels are noise, about 3.5 MB as a lossless PNG.
    const hostile = await upFilteredGradient(2048, 4, 7);
    expect(hostile.length).toBeLessThan(64 * 1024);
    const tenant = await createTestTenant();
    const res = await upload(baseUrl(), tenant, hostile);
    expect(res.status).toBe(200);
    const { bytes } = await served(res.body);
    expect(bytes.length).toBeLessThanOrEqual(LOGO_MAX_BYTES);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'png', width: STORED_SIDE, height: STORED_SIDE, isPalette: true });
  });

  it('keeps the aspect ratio and never enlarges a logo', async () => {
    const tenant = await createTestTenant();
    const wide = await sharp({ create: { width: 3000, height: 600, channels: 3, background: '#123456' } }).png().toBuffer();
    const small = await sharp({ create: { width: 300, height: 100, channels: 4, background: '#12345680' } }).webp().toBuffer();
    const storedWide = await served((await upload(baseUrl(), tenant, wide)).body);
    expect(await sharp(storedWide.bytes).metadata()).toMatchObject({ width: 1024, height: 205 });
    const storedSmall = await served((await upload(baseUrl(), tenant, small, '/tenant/upload-receipt-logo')).body);
    expect(await sharp(storedSmall.bytes).metadata()).toMatchObject({ format: 'webp', width: 300, height: 100 });
  });
});

describe('a logo that cannot fit its bounds is refused, never stored larger', () => {
  // At 1024x1024 every fallback fits in 2 MiB (a palette is a byte a pixel), so the refusal is
  // reached with tighter bounds: the same code path, the same answer shape.
  it.each(['png', 'jpeg', 'webp', 'gif'] as const)('refuses a %s of noise that no encoding brings under the bytes', async (format) => {
    const noise = await noiseImage(format, 256);
    const checked = await checkLogoImage(noise, { side: 256, maxBytes: 4096 });
    expect(checked).toEqual({ refused: 'image is too detailed to store in 4096 bytes at 256x256 pixels; upload a simpler image' });
    const fits = await checkLogoImage(noise, { side: 64, maxBytes: 64 * 1024 });
    expect('bytes' in fits && fits.bytes.length).toBeLessThanOrEqual(64 * 1024);
  });
});

describe('public assets have a per-address budget and validators', () => {
  const BUDGET = 5;
  let server: InProcessApp;

  beforeAll(async () => {
    server = await startInProcessApp({ RATE_LIMIT_AUTH_FAILURES_PER_WINDOW: String(BUDGET), RATE_LIMIT_WINDOW_SECONDS: '60' });
  });
  afterAll(() => server.close());

  // The app trusts a loopback proxy, so each test speaks for an address of its own (RFC 5737 documentation ranges).
  const from = (address: string, headers: Record<string, string> = {}) => ({ 'x-forwarded-for': address, ...headers });

  it('answers 304 to its ETag, counts every request, unknown ids once, and 429 once the address has spent its budget', async () => {
    const tenant = await createTestTenant('Assets', server.url);
    const logo = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#abcdef' } }).png().toBuffer();
    // The answer is under PUBLIC_URL; this app listens elsewhere.
    const url = `${server.url}/assets/${(await upload(server.url, tenant, logo)).body.split('/').pop()}`;
    const address = '198.51.100.31';

    const first = await served(url, from(address));
    expect(first.res.status).toBe(200);
    const etag = `"${createHash('sha256').update(first.bytes).digest('hex')}"`;
    expect(first.res.headers.get('etag')).toBe(etag);
    expect(first.res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(first.res.headers.get('x-ratelimit-remaining')).toBe(String(BUDGET - 1));

    const revalidated = await served(url, from(address, { 'if-none-match': etag }));
    expect(revalidated.res.status).toBe(304);
    expect(revalidated.bytes.length).toBe(0);

    const unknown = await request(`${server.url}/assets/${randomUUID()}`, { headers: from(address) });
    expect(unknown).toMatchObject({ status: 404, body: { detail: 'Not Found' } });
    // Charged here once, not a second time by the app's fallback for unknown routes.
    expect(unknown.headers.get('x-ratelimit-remaining')).toBe(String(BUDGET - 3));
    const malformed = await request(`${server.url}/assets/not-a-uuid`, { headers: from(address) });
    expect(malformed.status).toBe(404);
    expect(malformed.headers.get('x-ratelimit-remaining')).toBe(String(BUDGET - 4));

    expect((await served(url, from(address))).res.status).toBe(200);
    const over = await request(url, { headers: from(address) });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ detail: 'Rate limit exceeded' });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // A revalidation is a request too.
    expect((await served(url, from(address, { 'if-none-match': etag }))).res.status).toBe(429);

    const elsewhere = await served(url, from('198.51.100.32'));
    expect(elsewhere.res.status).toBe(200);
    expect(elsewhere.bytes.equals(first.bytes)).toBe(true);
  });

  it('never serves a logo stored oversized before the fix; the migration re-encodes it under the same id', async () => {
    const tenant = await createTestTenant('Old logo', server.url);
    const old = await sharp(await findingUpload()).png().toBuffer(); // the old pipeline's 28 MB
    expect(old.length).toBeGreaterThan(LOGO_MAX_BYTES);
    const id = randomUUID();
    const connection = server.platform.tenantOrm.em.getConnection();
    await connection.execute(`insert into tenant.assets (id, tenant_id, sha256, content_type, byte_size, data) values (?, ?, ?, 'image/png', ?, ?)`, [
      id,
      tenant.tenantId,
      createHash('sha256').update(old).digest('hex'),
      old.length,
      old,
    ]);
    await connection.execute(`update tenant.tenants set logo_asset_id = ? where id = ?`, [id, tenant.tenantId]);
    const url = `${server.url}/assets/${id}`;
    expect((await tenant.get('/tenant/logo')).body).toMatch(new RegExp(`/assets/${id}$`));

    expect((await request(url, { headers: from('192.0.2.41') })).status).toBe(404);

    const orm = server.platform.tenantOrm;
    await new Migration20261215000000_bounded_logos(orm.em.getDriver(), orm.config).up();

    const after = await served(url, from('192.0.2.42'));
    expect(after.res.status).toBe(200);
    expect(after.bytes.length).toBeLessThanOrEqual(LOGO_MAX_BYTES);
    expect(after.res.headers.get('etag')).toBe(`"${createHash('sha256').update(after.bytes).digest('hex')}"`);
    expect(await sharp(after.bytes).metadata()).toMatchObject({ format: 'png', width: STORED_SIDE, height: STORED_SIDE });
    expect((await tenant.get('/tenant/logo')).body).toMatch(new RegExp(`/assets/${id}$`));
  });
});

describe('logo decodes are shared fairly between tenants', () => {
  let server: InProcessApp;
  beforeAll(async () => {
    server = await startInProcessApp({ RATE_LIMIT_PER_WINDOW: '100000' });
  });
  afterAll(() => server?.close());

  it("one tenant decodes one logo at a time; another tenant's upload takes the free slot ahead of the burst", async () => {
    const deps = server.platform.subgraphs!.find((s) => s.name === 'tenant')!.deps as TenantDeps;
    // The order is under test, not the wait bound (its own unit test has that): on a loaded machine
    // three decodes can outlast LOGO_DECODE_WAIT_MS, so this app's queue waits as long as the test.
    deps.decodes = new FairShare('logo', { perKey: 1, total: LOGO_DECODES_AT_ONCE, maxWaitMs: 120_000, maxQueuedPerKey: LOGO_DECODES_QUEUED_PER_TENANT });
    const decodes = deps.decodes;
    const [burst, other] = [await createTestTenant('Burst', server.url), await createTestTenant('Other', server.url)];
    const admitted: string[] = [];
    let mostAtOnce = 0;
    const stop = decodes.listen((event) => {
      if (event.kind === 'admitted') admitted.push(event.key);
      mostAtOnce = Math.max(mostAtOnce, decodes.counts(burst.tenantId).running);
    });
    try {
      const file = await findingUpload();
      const burstUploads = [1, 2, 3].map(() => upload(server.url, burst, file));
      // The burst holds its one slot and queues the rest before the other tenant arrives.
      while (decodes.counts(burst.tenantId).waiting < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      const otherUpload = upload(server.url, other, file);
      const answers = await Promise.all([...burstUploads, otherUpload]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
      expect(mostAtOnce).toBe(1);
      // The other tenant was admitted second: before the burst's second and third uploads.
      expect(admitted).toEqual([burst.tenantId, other.tenantId, burst.tenantId, burst.tenantId]);
      expect(decodes.counts()).toEqual({ running: 0, waiting: 0 });
    } finally {
      stop();
    }
  }, 150_000);
});
