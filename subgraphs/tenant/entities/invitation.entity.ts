import { Entity, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/** A one-time invitation to set a password: only the token's SHA-256 is kept. */
@Entity({ tableName: 'invitations' })
export class Invitation extends TenantScopedEntity {
  @Property({ type: 'uuid', fieldName: 'user_id' })
  userId!: string;

  @Property({ type: 'bytea', fieldName: 'token_hash', hidden: true })
  tokenHash!: Buffer;

  @Property({ type: 'timestamptz', fieldName: 'expires_at' })
  expiresAt!: Date;

  @Property({ type: 'timestamptz', fieldName: 'accepted_at', nullable: true })
  acceptedAt: Date | null = null;
}
