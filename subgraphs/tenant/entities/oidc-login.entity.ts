import { Entity, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/**
 * A single sign-on begun and not yet back from the identity provider (docs/access.md, Single
 * sign-on): only the state's SHA-256 is kept, with the PKCE verifier and the nonce the answer is
 * checked against. Used once, before `expiresAt`.
 */
@Entity({ tableName: 'oidc_logins' })
export class OidcLogin extends TenantScopedEntity {
  @Property({ type: 'bytea', fieldName: 'state_hash', hidden: true })
  stateHash!: Buffer;

  @Property({ type: 'text', fieldName: 'code_verifier', hidden: true })
  codeVerifier!: string;

  @Property({ type: 'text', hidden: true })
  nonce!: string;

  @Property({ type: 'timestamptz', fieldName: 'expires_at' })
  expiresAt!: Date;

  @Property({ type: 'timestamptz', fieldName: 'used_at', nullable: true })
  usedAt: Date | null = null;
}
