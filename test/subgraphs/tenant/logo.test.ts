import { AssetRepository } from '../../../subgraphs/tenant/repositories/asset.repository';
import { IMAGES, NOT_IMAGES } from './image-fixtures';
import { issuesOf, KIT_PUBLIC_URL, startTenantKit, type TenantSubgraphKit } from './subgraph-kit';

const SET = 'mutation($kind: LogoKind!, $f: UploadedFileInput!) { setTenantLogo(kind: $kind, file: $f) }';
const file = (bytes: Buffer, filename = 'logo.bin') => ({ filename, contentType: 'image/png', base64: bytes.toString('base64') });

describe('tenant logos in the subgraph (real PostgreSQL)', () => {
  let kit: TenantSubgraphKit;
  beforeAll(async () => {
    kit = await startTenantKit();
  });
  afterAll(() => kit.close());

  const assetIdOf = (url: string) => url.slice(`${KIT_PUBLIC_URL}/assets/`.length);

  it.each(Object.entries(IMAGES))('stores a %s by its sniffed type and links it absolutely', async (kind, bytes) => {
    const tenant = await kit.tenant();
    const result = await kit.run(tenant, SET, { kind: 'LOGO', f: file(bytes) });
    expect(result.errors).toBeUndefined();
    const url: string = result.data.setTenantLogo;
    expect(url).toMatch(new RegExp(`^${KIT_PUBLIC_URL}/assets/[0-9a-f-]{36}$`));
    const asset = await new AssetRepository(kit.subgraph.orm.em.fork() as never).findPublic(assetIdOf(url));
    expect(asset).toMatchObject({ contentType: kind === 'jpeg' ? 'image/jpeg' : `image/${kind}`, byteSize: bytes.length });
    expect(Buffer.compare(asset!.data, bytes)).toBe(0);
    const read = await kit.run(tenant, '{ tenantLogo publicTenant { logoUrl receiptLogoUrl } }');
    expect(read.data).toEqual({ tenantLogo: url, publicTenant: { logoUrl: url, receiptLogoUrl: null } });
  });

  it('stores the same bytes once per tenant, and keeps the two logos apart', async () => {
    const tenant = await kit.tenant();
    const logo = (await kit.run(tenant, SET, { kind: 'LOGO', f: file(IMAGES.png) })).data.setTenantLogo;
    const receipt = (await kit.run(tenant, SET, { kind: 'RECEIPT', f: file(IMAGES.png, 'again.png') })).data.setTenantLogo;
    expect(receipt).toBe(logo);
    const gif = (await kit.run(tenant, SET, { kind: 'RECEIPT', f: file(IMAGES.gif) })).data.setTenantLogo;
    expect(gif).not.toBe(logo);
    const read = await kit.run(tenant, '{ logo: tenantLogo(kind: LOGO) receipt: tenantLogo(kind: RECEIPT) }');
    expect(read.data).toEqual({ logo, receipt: gif });
    // Another tenant uploading the same bytes gets its own row: assets never cross tenants.
    const other = await kit.tenant();
    expect((await kit.run(other, SET, { kind: 'LOGO', f: file(IMAGES.png) })).data.setTenantLogo).not.toBe(logo);
  });

  it.each([
    ['svg', NOT_IMAGES.svg, 'SVG images are not accepted (they can carry scripts); upload a PNG, JPEG, WebP or GIF image'],
    ['pdf', NOT_IMAGES.pdf, 'file must be a PNG, JPEG, WebP or GIF image (judged by its content, not its name or declared type)'],
    ['text', NOT_IMAGES.text, 'file must be a PNG, JPEG, WebP or GIF image (judged by its content, not its name or declared type)'],
    ['empty', Buffer.alloc(0), 'file is empty'],
  ])('refuses %s with a value_error at file, writing nothing', async (_name, bytes, reason) => {
    const tenant = await kit.tenant();
    const result = await kit.run(tenant, SET, { kind: 'LOGO', f: file(bytes, 'logo.png') });
    expect(issuesOf(result)).toEqual([{ type: 'value_error', loc: ['file'], msg: `Value error, ${reason}`, input: 'logo.png', ctx: { error: reason } }]);
    expect((await kit.run(tenant, '{ tenantLogo }')).data.tenantLogo).toBeNull();
  });

  it('refuses files over 2 MiB and text that is not base64', async () => {
    const tenant = await kit.tenant();
    const big = Buffer.concat([IMAGES.png, Buffer.alloc(2 * 1024 * 1024)]);
    expect(issuesOf(await kit.run(tenant, SET, { kind: 'LOGO', f: file(big) }))[0]).toMatchObject({ loc: ['file'], msg: 'Value error, file must be at most 2097152 bytes' });
    const notBase64 = { filename: null, base64: '***' };
    expect(issuesOf(await kit.run(tenant, SET, { kind: 'LOGO', f: notBase64 }))[0]).toMatchObject({ loc: ['file'], msg: 'Value error, file content must be standard base64', input: null });
  });
});
