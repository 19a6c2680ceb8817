import { Entity, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/** Where a person stands: invited (no password yet), active, or removed (kept for the audit trail's references). */
export type UserStatus = 'invited' | 'active' | 'removed';

/** A person of a tenant with a role (docs/access.md). The secrets are `hidden`: never in a serialised entity. */
@Entity({ tableName: 'users' })
export class User extends TenantScopedEntity {
  @Property({ type: 'text', hidden: true })
  email!: string;

  @Property({ type: 'text', nullable: true })
  name: string | null = null;

  @Property({ type: 'text' })
  role!: string;

  /** Argon2id, PHC string form; null until the invitation is accepted (or for single sign-on only). */
  @Property({ type: 'text', fieldName: 'password_hash', nullable: true, hidden: true })
  passwordHash: string | null = null;

  /** The TOTP secret (base32) once enrolled. */
  @Property({ type: 'text', fieldName: 'totp_secret', nullable: true, hidden: true })
  totpSecret: string | null = null;

  /** The TOTP time step of the last code accepted at sign-in: no code is accepted twice (RFC 6238, section 5.2). */
  @Property({ type: 'bigint', fieldName: 'totp_last_step', nullable: true, hidden: true })
  totpLastStep: string | null = null;

  @Property({ type: 'text' })
  status: UserStatus = 'invited';

  @Property({ type: 'timestamptz', fieldName: 'removed_at', nullable: true })
  removedAt: Date | null = null;
}
