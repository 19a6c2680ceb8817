import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FairShare } from '../../../platform/fair-share';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import { valueError } from '../../../schema/errors';
import { LogoKind, type UploadedFileInput } from '../inputs/uploaded-file.input';
import { LOGO_MAX_BYTES } from '../../../schema/upload-limits';
import { AssetRepository } from '../repositories/asset.repository';
import { assetUrl } from '../tenant-view';
import { checkLogoImage } from './logo-image';
import { TenantService } from './tenant.service';

const ARGUMENT = 'file';
const MAX_BASE64_LENGTH = Math.ceil(LOGO_MAX_BYTES / 3) * 4;

/** A rejected file: `value_error` at the `file` argument, with the file's name (never its bytes) as input. */
const fileError = (file: UploadedFileInput, reason: string) => valueError([ARGUMENT], reason, file.filename ?? null);

/** The tenant's two logos: uploads are judged by decoding them, stored re-encoded and content-addressed, and linked absolutely. */
export class LogoService {
  constructor(
    private readonly em: EntityManager,
    private readonly scope: TenantScope,
    private readonly publicUrl: string,
    private readonly decodes: FairShare,
    /** The request's side of the audit trail (ctx.audit), which an upload writes to; reads of the URL record nothing. */
    private readonly audit: RequestAudit,
    /** The request's (ctx.signal): an upload still waiting for its decode when it aborts is dropped. */
    private readonly signal?: AbortSignal,
  ) {}

  /** The logo's absolute URL, or null when none is set. */
  async url(kind: LogoKind): Promise<string | null> {
    const tenant = await new TenantService(this.em).current(this.scope);
    return assetUrl(this.publicUrl, kind === LogoKind.RECEIPT ? tenant.receiptLogoAssetId : tenant.logoAssetId);
  }

  /** Validates and stores an uploaded logo, points the tenant at it (with its audit record) and returns its URL; nothing is written when the file is refused. */
  async upload(kind: LogoKind, file: UploadedFileInput): Promise<string> {
    const bytes = decode(file);
    // One decode per tenant at a time: a burst of uploads waits for its own turn (docs/decisions.md, Fair shares between tenants).
    const checked = await this.decodes.run(this.scope.tenantId, () => checkLogoImage(bytes), this.signal);
    if ('refused' in checked) throw fileError(file, checked.refused);
    // The stored bytes are the re-encoded ones, so the hash (the asset's ETag) is theirs.
    const { contentType, bytes: stored } = checked;
    const sha256 = createHash('sha256').update(stored).digest('hex');
    const assetId = await this.em.transactional(async (tx) => {
      const id = await new AssetRepository(tx, this.scope).store(randomUUID(), sha256, contentType, stored);
      const tenant = await new TenantService(tx).load(this.scope);
      if (kind === LogoKind.RECEIPT) tenant.receiptLogoAssetId = id;
      else tenant.logoAssetId = id;
      // The record names the asset: content-addressed, it says exactly which image was set.
      await this.audit.change(tx, 'tenant_logo.set', 'tenant_logo', [id]);
      return id;
    });
    return assetUrl(this.publicUrl, assetId)!;
  }
}

/** The file's bytes; refuses text that is not standard base64 and files over the limit. */
function decode(file: UploadedFileInput): Buffer {
  const text = file.base64;
  if (text.length > MAX_BASE64_LENGTH + 4) throw fileError(file, `file must be at most ${LOGO_MAX_BYTES} bytes`);
  // Node's decoder is lenient (URL-safe letters, whitespace, missing padding), so strictness is
  // checked by encoding back: only canonical standard base64 survives the round trip. Both
  // passes are native and linear, unlike a regular expression over megabytes of text.
  const bytes = Buffer.from(text, 'base64');
  if (bytes.toString('base64') !== text) throw fileError(file, 'file content must be standard base64');
  if (bytes.length > LOGO_MAX_BYTES) throw fileError(file, `file must be at most ${LOGO_MAX_BYTES} bytes`);
  if (bytes.length === 0) throw fileError(file, 'file is empty');
  return bytes;
}
