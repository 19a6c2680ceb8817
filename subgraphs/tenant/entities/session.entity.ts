import { Entity, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/** A signed-in person's server-side session (docs/access.md, Sessions): hashes of its cookie token and CSRF token, and its two deadlines. */
@Entity({ tableName: 'sessions' })
export class Session extends TenantScopedEntity {
  @Property({ type: 'uuid', fieldName: 'user_id' })
  userId!: string;

  @Property({ type: 'bytea', fieldName: 'token_hash', hidden: true })
  tokenHash!: Buffer;

  @Property({ type: 'bytea', fieldName: 'csrf_hash', hidden: true })
  csrfHash!: Buffer;

  /** Automatic logoff: moved forward by each request, ended when passed. */
  @Property({ type: 'timestamptz', fieldName: 'idle_expires_at' })
  idleExpiresAt!: Date;

  /** The absolute lifetime, never moved. */
  @Property({ type: 'timestamptz', fieldName: 'expires_at' })
  expiresAt!: Date;

  @Property({ type: 'timestamptz', fieldName: 'ended_at', nullable: true })
  endedAt: Date | null = null;
}
