import { createHash } from 'node:crypto';
import { Migration } from '@mikro-orm/migrations';
import { LOGO_MAX_BYTES } from '../../../schema/upload-limits';
import { checkLogoImage } from '../services/logo-image';

/**
 * Logos stored before they were bounded (docs/decisions.md, Logos are bounded) are brought under
 * the upload cap: each asset over it is resized and re-encoded as an upload is today, under the
 * same id, so the URLs tenants hold keep working (with a new ETag). One row's bytes are in memory
 * at a time. When the tenant already has an asset with the new bytes, its logos point there and
 * the oversized row goes (the content-addressed store keeps one row per content). An asset that
 * cannot be re-encoded stays as it was; the public route serves nothing over the cap.
 */
export class Migration20261215000000_bounded_logos extends Migration {
  async up(): Promise<void> {
    const oversized = await this.execute(`select id, tenant_id from "tenant"."assets" where byte_size > ? order by id`, [LOGO_MAX_BYTES]);
    for (const { id, tenant_id: tenantId } of oversized as Array<{ id: string; tenant_id: string }>) {
      const [row] = (await this.execute(`select data from "tenant"."assets" where id = ?`, [id])) as Array<{ data: Buffer }>;
      const checked = await checkLogoImage(row.data);
      if ('refused' in checked) continue;
      const sha256 = createHash('sha256').update(checked.bytes).digest('hex');
      const [twin] = (await this.execute(`select id from "tenant"."assets" where tenant_id = ? and sha256 = ? and id <> ?`, [tenantId, sha256, id])) as Array<{ id: string }>;
      if (twin) {
        await this.execute(`update "tenant"."tenants" set logo_asset_id = ? where logo_asset_id = ?`, [twin.id, id]);
        await this.execute(`update "tenant"."tenants" set receipt_logo_asset_id = ? where receipt_logo_asset_id = ?`, [twin.id, id]);
        await this.execute(`delete from "tenant"."assets" where id = ?`, [id]);
      } else {
        await this.execute(`update "tenant"."assets" set sha256 = ?, content_type = ?, byte_size = ?, data = ? where id = ?`, [
          sha256,
          checked.contentType,
          checked.bytes.length,
          checked.bytes,
          id,
        ]);
      }
    }
  }

  async down(): Promise<void> {
    // The original bytes are gone; the re-encoded logos stay valid under the old code.
  }
}
