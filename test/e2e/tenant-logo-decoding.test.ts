import sharp from 'sharp';
import { baseUrl, createTestTenant, request, type TestTenant } from '../utils/e2e';
import { METADATA_MARKS, noiseImage, pngSignatureAndZeros, pngWithMetadata } from '../subgraphs/tenant/image-fixtures';

/** POSTs a multipart form with the file in field `file`. */
function upload(tenant: TestTenant, file: Buffer, filename = 'logo.png') {
  const form = new FormData();
  form.append('file', new Blob([file], { type: 'image/png' }), filename);
  return request(`${baseUrl()}/tenant/upload-logo`, { method: 'POST', headers: tenant.headers, body: form });
}

const fileError = (reason: string, input: unknown = 'logo.png') => ({
  detail: [{ type: 'value_error', loc: ['body', 'file'], msg: `Value error, ${reason}`, input, ctx: { error: reason } }],
});
const NOT_AN_IMAGE = 'file must be a PNG, JPEG, WebP or GIF image (judged by its content, not its name or declared type)';

describe(`logo uploads are decoded, bounded and stripped (${process.env.E2E_MODE} mode)`, () => {
  it('refuses a PNG signature followed by 2 MiB of zeros, over REST and over GraphQL', async () => {
    const tenant = await createTestTenant();
    const hostile = pngSignatureAndZeros();
    expect(await upload(tenant, hostile, 'zeros.png')).toMatchObject({ status: 422, body: fileError(NOT_AN_IMAGE, 'zeros.png') });
    // Same checks behind setTenantLogo: 2 MiB as base64 is over the JSON body limit, so a smaller one.
    const mutation = 'mutation($f: UploadedFileInput!) { setTenantLogo(file: $f) }';
    const graph = await tenant.graphql(mutation, { f: { filename: 'zeros.png', base64: pngSignatureAndZeros(64 * 1024).toString('base64') } });
    expect(graph.body.errors[0].extensions.validation).toEqual([
      { type: 'value_error', loc: ['file'], msg: `Value error, ${NOT_AN_IMAGE}`, input: 'zeros.png', ctx: { error: NOT_AN_IMAGE } },
    ]);
    expect((await tenant.get('/tenant/logo')).body).toBeNull();
  });

  it('serves a logo uploaded with EXIF and a text comment without either', async () => {
    const tenant = await createTestTenant();
    const uploaded = await pngWithMetadata();
    expect((await sharp(uploaded).metadata()).exif).toBeDefined();
    const res = await upload(tenant, uploaded);
    expect(res.status).toBe(200);
    const served = Buffer.from(await (await fetch(res.body)).arrayBuffer());
    const metadata = await sharp(served).metadata();
    expect(metadata).toMatchObject({ format: 'png', width: 24, height: 24 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.comments).toBeUndefined();
    for (const mark of Object.values(METADATA_MARKS)) expect(served.includes(mark)).toBe(false);
  });

  it('refuses an image larger than 4096 pixels on a side, even when the file is small', async () => {
    const tenant = await createTestTenant();
    const huge = await sharp({ create: { width: 6000, height: 6000, channels: 3, background: '#fff' } }).png().toBuffer();
    expect(huge.length).toBeLessThan(2 * 1024 * 1024);
    const reason = 'image must be at most 4096x4096 pixels (this one is 6000x6000)';
    expect(await upload(tenant, huge, 'bomb.png')).toMatchObject({ status: 422, body: fileError(reason, 'bomb.png') });
    expect((await tenant.get('/tenant/logo')).body).toBeNull();
  });

  it('keeps /healthz answering while ten hostile 2 MiB uploads and a burst of real ones are in flight', async () => {
    const tenant = await createTestTenant();
    const hostile = pngSignatureAndZeros();
    const real = await noiseImage('png', 600); // about 1 MiB of random pixels: a real decode and re-encode each
    let inFlight = 0;
    let pollsDuringUploads = 0;
    const healthz: number[] = [];
    const tracked = async (send: () => ReturnType<typeof upload>) => {
      inFlight++;
      try {
        return await send();
      } finally {
        inFlight--;
      }
    };
    const uploads = Promise.all([
      ...Array.from({ length: 10 }, () => tracked(() => upload(tenant, hostile, 'zeros.png'))),
      ...Array.from({ length: 4 }, () => tracked(() => upload(tenant, real, 'real.png'))),
    ]);
    let done = false;
    const polling = (async () => {
      while (!done) {
        const res = await fetch(`${baseUrl()}/healthz`);
        healthz.push(res.status);
        await res.arrayBuffer();
        if (inFlight > 0) pollsDuringUploads++;
      }
    })();
    const results = await uploads;
    done = true;
    await polling;
    expect(results.slice(0, 10).map((r) => r.status)).toEqual(Array(10).fill(422));
    expect(results[0].body).toEqual(fileError(NOT_AN_IMAGE, 'zeros.png'));
    // The burst of real images waited for decode slots; none was refused.
    expect(results.slice(10).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(healthz.every((status) => status === 200)).toBe(true);
    expect(pollsDuringUploads).toBeGreaterThan(0);
  });
});
