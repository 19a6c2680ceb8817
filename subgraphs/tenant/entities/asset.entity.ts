import { Entity, Property, Unique } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/**
 * Bytes a tenant uploaded (logos), content-addressed by SHA-256 within the tenant: the same
 * file uploaded twice is stored once, resized and re-encoded to at most the upload cap
 * (docs/decisions.md, Logos are bounded). Served publicly at `/assets/{id}`; never changed after
 * insert, which is what makes the immutable cache headers true (the one exception: the migration
 * that brought logos stored before the bound under it).
 */
@Entity({ tableName: 'assets' })
@Unique({ properties: ['tenantId', 'sha256'] })
export class Asset extends TenantScopedEntity {
  /** Hex SHA-256 of `data`; also the HTTP ETag. */
  @Property({ type: 'text' })
  sha256!: string;

  /** The type the bytes were decoded and re-encoded as, never the client's claim. */
  @Property({ type: 'text', fieldName: 'content_type' })
  contentType!: string;

  @Property({ type: 'integer', fieldName: 'byte_size' })
  byteSize!: number;

  // Hidden: a serialised entity (logs, debugging) must never drag megabytes of bytes along.
  @Property({ type: 'blob', columnType: 'bytea', hidden: true, lazy: true })
  data!: Buffer;
}
