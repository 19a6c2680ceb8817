import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { AssetRepository } from '../../../subgraphs/tenant/repositories/asset.repository';
import { IMAGE_FORMATS, makeImage, METADATA_MARKS, noiseImage, NOT_IMAGES, pngSignatureAndZeros, pngWithMetadata } from './image-fixtures';
import { issuesOf, KIT_PUBLIC_URL, startTenantKit, type TenantSubgraphKit } from './subgraph-kit';

const SET = 'mutation($kind: LogoKind!, $f: UploadedFileInput!) { setTenantLogo(kind: $kind, file: $f) }';
const file = (bytes: Buffer, filename = 'logo.png') => ({ filename, contentType: 'image/png', base64: bytes.toString('base64') });
const NOT_AN_IMAGE = 'file must be a PNG, JPEG, WebP or GIF image (judged by its content, not its name or declared type)';
const CORRUPT = 'file could not be decoded as an image (it is corrupt or truncated)';

describe('tenant logos in the subgraph (real PostgreSQL)', () => {
  let kit: TenantSubgraphKit;
  beforeAll(async () => {
    kit = await startTenantKit();
  });
  afterAll(() => kit.close());

  const assetIdOf = (url: string) => url.slice(`${KIT_PUBLIC_URL}/assets/`.length);
  const storedAsset = async (url: string) => (await AssetRepository.findPublicUnscoped(kit.subgraph.orm.em.fork() as never, assetIdOf(url)))!;
  const refusal = (reason: string, input = 'logo.png') => [{ type: 'value_error', loc: ['file'], msg: `Value error, ${reason}`, input, ctx: { error: reason } }];

  it.each(IMAGE_FORMATS)('stores a %s re-encoded in its own format, hashed as stored, and links it absolutely', async (format) => {
    const tenant = await kit.tenant();
    const bytes = await makeImage(format);
    const result = await kit.run(tenant, SET, { kind: 'LOGO', f: file(bytes) });
    expect(result.errors).toBeUndefined();
    const url: string = result.data.setTenantLogo;
    expect(url).toMatch(new RegExp(`^${KIT_PUBLIC_URL}/assets/[0-9a-f-]{36}$`));
    const asset = await storedAsset(url);
    expect(asset).toMatchObject({ contentType: `image/${format}`, byteSize: asset.data.length, sha256: createHash('sha256').update(asset.data).digest('hex') });
    expect(await sharp(asset.data).metadata()).toMatchObject({ format, width: 16, height: 12 });
    const read = await kit.run(tenant, '{ tenantLogo publicTenant { logoUrl receiptLogoUrl } }');
    expect(read.data).toEqual({ tenantLogo: url, publicTenant: { logoUrl: url, receiptLogoUrl: null } });
  });

  it('stores the same upload once per tenant, and keeps the two logos apart', async () => {
    const [png, gif] = await Promise.all([makeImage('png'), makeImage('gif')]);
    const tenant = await kit.tenant();
    const logo = (await kit.run(tenant, SET, { kind: 'LOGO', f: file(png) })).data.setTenantLogo;
    // Re-encoding is deterministic, so the same upload lands on the same stored bytes.
    const receipt = (await kit.run(tenant, SET, { kind: 'RECEIPT', f: file(png, 'again.png') })).data.setTenantLogo;
    expect(receipt).toBe(logo);
    const gifUrl = (await kit.run(tenant, SET, { kind: 'RECEIPT', f: file(gif) })).data.setTenantLogo;
    expect(gifUrl).not.toBe(logo);
    const read = await kit.run(tenant, '{ logo: tenantLogo(kind: LOGO) receipt: tenantLogo(kind: RECEIPT) }');
    expect(read.data).toEqual({ logo, receipt: gifUrl });
    // Another tenant uploading the same bytes gets its own row: assets never cross tenants.
    const other = await kit.tenant();
    expect((await kit.run(other, SET, { kind: 'LOGO', f: file(png) })).data.setTenantLogo).not.toBe(logo);
  });

  it('strips EXIF and text chunks from what it stores', async () => {
    const upload = await pngWithMetadata();
    const before = await sharp(upload).metadata();
    expect(before.exif).toBeDefined();
    expect(before.comments).toEqual([{ keyword: 'Comment', text: METADATA_MARKS.textComment }]);
    const tenant = await kit.tenant();
    const asset = await storedAsset((await kit.run(tenant, SET, { kind: 'LOGO', f: file(upload) })).data.setTenantLogo);
    const after = await sharp(asset.data).metadata();
    expect(after).toMatchObject({ format: 'png', width: 24, height: 24 });
    expect(after.exif).toBeUndefined();
    expect(after.comments).toBeUndefined();
    for (const mark of Object.values(METADATA_MARKS)) expect(asset.data.includes(mark)).toBe(false);
  });

  it('keeps only the first frame of an animated GIF', async () => {
    // Three 8x8 frames stacked into one strip: red, green, blue.
    const frames = Buffer.concat(['#ff0000', '#00ff00', '#0000ff'].map((hex) => Buffer.alloc(8 * 8 * 3, Buffer.from(hex.slice(1), 'hex'))));
    const animated = await sharp(frames, { raw: { width: 8, height: 24, channels: 3, pageHeight: 8 } }).gif().toBuffer();
    expect((await sharp(animated).metadata()).pages).toBe(3);
    const tenant = await kit.tenant();
    const asset = await storedAsset((await kit.run(tenant, SET, { kind: 'LOGO', f: file(animated) })).data.setTenantLogo);
    expect(await sharp(asset.data).metadata()).toMatchObject({ format: 'gif', pages: 1, width: 8, height: 8 });
    const { data } = await sharp(asset.data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([255, 0, 0]);
  });

  it.each([
    ['svg', NOT_IMAGES.svg, 'SVG images are not accepted (they can carry scripts); upload a PNG, JPEG, WebP or GIF image'],
    ['pdf', NOT_IMAGES.pdf, NOT_AN_IMAGE],
    ['text', NOT_IMAGES.text, NOT_AN_IMAGE],
    ['empty', Buffer.alloc(0), 'file is empty'],
    ['a PNG signature and 2 MiB of zeros', pngSignatureAndZeros(), NOT_AN_IMAGE],
  ])('refuses %s with a value_error at file, writing nothing', async (_name, bytes, reason) => {
    const tenant = await kit.tenant();
    const result = await kit.run(tenant, SET, { kind: 'LOGO', f: file(bytes, 'logo.png') });
    expect(issuesOf(result)).toEqual(refusal(reason));
    expect((await kit.run(tenant, '{ tenantLogo }')).data.tenantLogo).toBeNull();
  });

  it('refuses formats the decoder knows but logos do not take (TIFF, AVIF)', async () => {
    const tenant = await kit.tenant();
    const [tiff, avif] = await Promise.all(['tiff', 'avif'].map((format) => sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).toFormat(format as 'tiff').toBuffer()));
    for (const bytes of [tiff, avif]) expect(issuesOf(await kit.run(tenant, SET, { kind: 'LOGO', f: file(bytes, 'logo.png') }))).toEqual(refusal(NOT_AN_IMAGE));
  });

  it.each(['png', 'jpeg'] as const)('refuses a %s whose header is sound but whose pixels are cut off', async (format) => {
    const tenant = await kit.tenant();
    const whole = await noiseImage(format, 64);
    const cut = whole.subarray(0, Math.floor(whole.length * 0.6));
    expect((await sharp(cut).metadata()).format).toBe(format); // the header alone would pass
    expect(issuesOf(await kit.run(tenant, SET, { kind: 'LOGO', f: file(cut, 'cut.img') }))).toEqual(refusal(CORRUPT, 'cut.img'));
    expect((await kit.run(tenant, '{ tenantLogo }')).data.tenantLogo).toBeNull();
  });

  it.each([
    [4097, 1],
    [1, 4097],
  ])('refuses a %ix%i image: over 4096 pixels on a side, judged from the header', async (width, height) => {
    const tenant = await kit.tenant();
    const wide = await sharp({ create: { width, height, channels: 3, background: '#000' } }).png().toBuffer();
    const reason = `image must be at most 4096x4096 pixels (this one is ${width}x${height})`;
    expect(issuesOf(await kit.run(tenant, SET, { kind: 'LOGO', f: file(wide) }))).toEqual(refusal(reason));
    expect((await kit.run(tenant, '{ tenantLogo }')).data.tenantLogo).toBeNull();
  });

  it('refuses files over 2 MiB and text that is not standard base64', async () => {
    const tenant = await kit.tenant();
    const png = await makeImage('png');
    const big = Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]);
    expect(issuesOf(await kit.run(tenant, SET, { kind: 'LOGO', f: file(big) }))[0]).toMatchObject({ loc: ['file'], msg: 'Value error, file must be at most 2097152 bytes' });
    const standard = png.toString('base64');
    const urlSafe = standard.replace(/\+/g, '-').replace(/\//g, '_');
    for (const base64 of ['***', standard.replace(/=+$/, '') + '\n', `${standard.slice(0, 8)} ${standard.slice(8)}`, urlSafe === standard ? '_-_-' : urlSafe]) {
      const issues = issuesOf(await kit.run(tenant, SET, { kind: 'LOGO', f: { filename: null, base64 } }));
      expect(issues[0]).toMatchObject({ loc: ['file'], msg: 'Value error, file content must be standard base64', input: null });
    }
  });
});
