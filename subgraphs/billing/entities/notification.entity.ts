import { Entity, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/**
 * An e-mail queued in the same transaction as the change that asks for it, and sent later by
 * its job (notifications/gift-card-email-job.ts) once `nextAttemptAt` is due.
 */
@Entity({ tableName: 'notifications' })
export class Notification extends TenantScopedEntity {
  @Property({ type: 'uuid', fieldName: 'gift_card_id' })
  giftCardId!: string;

  @Property({ type: 'text' })
  kind!: 'gift_card_recipient';

  @Property({ type: 'text', fieldName: 'recipient_email', hidden: true })
  recipientEmail!: string;

  @Property({ type: 'timestamptz', fieldName: 'due_at' })
  dueAt!: Date;

  @Property({ type: 'timestamptz', fieldName: 'next_attempt_at' })
  nextAttemptAt!: Date;

  @Property({ type: 'integer' })
  attempts = 0;

  /** An error code only (`ECONNECTION`), never a message that could carry an address. */
  @Property({ type: 'text', fieldName: 'last_error', nullable: true })
  lastError: string | null = null;

  @Property({ type: 'text', fieldName: 'message_id', nullable: true })
  messageId: string | null = null;

  @Property({ type: 'timestamptz', fieldName: 'sent_at', nullable: true })
  sentAt: Date | null = null;

  @Property({ type: 'timestamptz', fieldName: 'failed_at', nullable: true })
  failedAt: Date | null = null;

  /** The job of the next attempt; only that job may send it (null once sent or given up). */
  @Property({ type: 'uuid', fieldName: 'job_id', nullable: true })
  jobId: string | null = null;
}
