import type { EntityManager } from '@mikro-orm/postgresql';
import { storedId } from '../../../platform/ids';
import type { TenantScope } from '../../../platform/tenant-scope';
import { LOGO_MAX_BYTES } from '../../../schema/upload-limits';

/** A stored asset's bytes and the facts its HTTP response needs. */
export interface AssetContent {
  contentType: string;
  byteSize: number;
  sha256: string;
  data: Buffer;
}

/** Queries of the assets table: writes in the scope's tenant; the public read is unscoped on purpose. */
export class AssetRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /**
   * Stores the bytes once per tenant and returns the asset id, new or existing. One upsert
   * statement, so two concurrent uploads of the same file cannot both insert; the no-op update
   * on conflict is what makes PostgreSQL return the existing row's id.
   */
  async store(id: string, sha256: string, contentType: string, data: Buffer): Promise<string> {
    const row = await this.em.getConnection().execute<{ id: string }>(
      `insert into tenant.assets (id, tenant_id, sha256, content_type, byte_size, data) values (?, ?, ?, ?, ?, ?)
       on conflict (tenant_id, sha256) do update set sha256 = excluded.sha256 returning id`,
      [id, this.scope.tenantId, sha256, contentType, data.length, data],
      'get',
      this.em.getTransactionContext(),
    );
    return row.id;
  }

  /**
   * Any tenant's asset by id: assets are public by design (logos on patient-facing pages), and
   * an id is an unguessable UUID; an id of any other shape is simply not there. Nothing over the upload cap
   * is read: stored logos are bounded (docs/decisions.md, Logos are bounded), and a row from before
   * that the migration could not re-encode must not cost a public request megabytes.
   */
  static async findPublicUnscoped(em: EntityManager, id: string): Promise<AssetContent | null> {
    const key = storedId(id);
    if (!key) return null;
    const row = await em.getConnection().execute<AssetContent>(
      `select content_type as "contentType", byte_size as "byteSize", sha256, data from tenant.assets where id = ? and byte_size <= ?`,
      [key, LOGO_MAX_BYTES],
      'get',
    );
    return row ?? null;
  }
}
