import { ArrayType, Entity, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/**
 * Where and what a tenant's webhook receives (contract part 6.1); at most one per tenant.
 * The signing secret is kept in plain text because Standard Webhooks signs with HMAC, which
 * needs the secret itself: a hash could not sign. It is hidden from serialisation, shown
 * whole only in the response that created or rotated it, and never logged.
 */
@Entity({ tableName: 'webhook_configs' })
export class WebhookConfig extends TenantScopedEntity {
  @Property({ type: 'text', nullable: true })
  url: string | null = null;

  @Property({ type: 'boolean' })
  enabled = false;

  /** Event names from WEBHOOK_EVENTS the endpoint subscribed to. */
  @Property({ type: ArrayType, columnType: 'text[]' })
  events: string[] = [];

  /** `whsec_<base64 of 24 random bytes>`. */
  @Property({ type: 'text', hidden: true })
  secret!: string;

  /** When the platform turned the endpoint off (a run of failures, or 410 Gone); null otherwise. */
  @Property({ type: 'timestamptz', fieldName: 'disabled_at', nullable: true })
  disabledAt: Date | null = null;

  /** Why the platform turned it off, for the tenant. */
  @Property({ type: 'text', fieldName: 'disabled_reason', nullable: true })
  disabledReason: string | null = null;

  // The endpoint's health, written by the dispatchers (webhooks/endpoint-policy.ts); the
  // configuration only resets it when the tenant re-enables the endpoint or changes its URL.
  @Property({ type: 'int', fieldName: 'consecutive_failures', hidden: true })
  consecutiveFailures = 0;

  @Property({ type: 'timestamptz', fieldName: 'failing_since', nullable: true, hidden: true })
  failingSince: Date | null = null;

  @Property({ type: 'timestamptz', fieldName: 'circuit_open_until', nullable: true, hidden: true })
  circuitOpenUntil: Date | null = null;
}
