import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/**
 * An API key. Only a SHA-256 hash of its secret part is stored; `lookupId` is the public part
 * of the key that finds the row without comparing secrets in SQL.
 */
@Entity({ tableName: 'api_keys' })
export class ApiKey extends TenantScopedEntity {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'text', fieldName: 'lookup_id', unique: true })
  lookupId!: string;

  @Property({ type: 'bytea', fieldName: 'secret_hash', hidden: true })
  secretHash!: Buffer;

  @Property({ type: 'text', nullable: true })
  name: string | null = null;

  @Property({ type: 'timestamptz', fieldName: 'revoked_at', nullable: true })
  revokedAt: Date | null = null;

  /** The scopes of a restricted key (docs/access.md); null for a full key. */
  @Property({ type: 'text[]', nullable: true })
  scopes: string[] | null = null;

  @Property({ type: 'timestamptz', fieldName: 'expires_at', nullable: true })
  expiresAt: Date | null = null;
}
