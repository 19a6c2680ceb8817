import { Entity, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/** Gift card states (contract part 3). */
export type GiftCardStatus = 'PENDING' | 'ACTIVE' | 'DISABLED' | 'VOIDED';

/**
 * An issued gift card. Values are integer cents. The code is a bearer secret and the purchaser
 * and recipient details are personal data: all hidden from serialisation, never logged. A code taken
 * in the tenant is skipped at insert (the repository draws another); activation locks the row.
 */
@Entity({ tableName: 'gift_cards' })
export class GiftCard extends TenantScopedEntity {
  @Property({ type: 'text', hidden: true })
  code!: string;

  @Property({ type: 'text' })
  status!: GiftCardStatus;

  @Property({ type: 'boolean', fieldName: 'is_active' })
  isActive = false;

  @Property({ type: 'integer', fieldName: 'initial_value_cents' })
  initialValueCents!: number;

  @Property({ type: 'integer', fieldName: 'current_balance_cents' })
  currentBalanceCents = 0;

  @Property({ type: 'uuid', fieldName: 'purchasing_patient_id', nullable: true })
  purchasingPatientId: string | null = null;

  @Property({ type: 'text', fieldName: 'purchasing_patient_name', nullable: true, hidden: true })
  purchasingPatientName: string | null = null;

  @Property({ type: 'text', fieldName: 'purchasing_patient_email', nullable: true, hidden: true })
  purchasingPatientEmail: string | null = null;

  @Property({ type: 'text', fieldName: 'purchasing_patient_phone', nullable: true, hidden: true })
  purchasingPatientPhone: string | null = null;

  @Property({ type: 'uuid', fieldName: 'recipient_patient_id', nullable: true })
  recipientPatientId: string | null = null;

  @Property({ type: 'text', fieldName: 'recipient_patient_name', nullable: true, hidden: true })
  recipientPatientName: string | null = null;

  @Property({ type: 'text', fieldName: 'recipient_patient_email', nullable: true, hidden: true })
  recipientPatientEmail: string | null = null;

  @Property({ type: 'text', fieldName: 'recipient_patient_phone', nullable: true, hidden: true })
  recipientPatientPhone: string | null = null;

  @Property({ type: 'text', fieldName: 'recipient_note', nullable: true, hidden: true })
  recipientNote: string | null = null;

  @Property({ type: 'uuid', fieldName: 'charge_item_id', nullable: true })
  chargeItemId: string | null = null;

  @Property({ type: 'timestamptz', fieldName: 'scheduled_send_date', nullable: true })
  scheduledSendDate: Date | null = null;

  @Property({ type: 'boolean', fieldName: 'suppress_recipient_notification' })
  suppressRecipientNotification = false;

  @Property({ type: 'timestamptz', fieldName: 'notification_sent_at', nullable: true })
  notificationSentAt: Date | null = null;

  @Property({ type: 'timestamptz', fieldName: 'activated_at', nullable: true })
  activatedAt: Date | null = null;
}
