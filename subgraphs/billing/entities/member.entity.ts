import { Entity, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/** Status of a membership (issue 4). */
export type MemberStatus = 'ACTIVE' | 'PAST_DUE' | 'CANCELLED';

/** How often a membership is billed. */
export type BillingInterval = 'MONTH' | 'YEAR';

/** A patient holding a membership plan, with what they owe on it. */
@Entity({ tableName: 'members' })
export class Member extends TenantScopedEntity {
  @Property({ type: 'uuid', fieldName: 'patient_id' })
  patientId!: string;

  @Property({ type: 'text', fieldName: 'plan_name' })
  planName!: string;

  @Property({ type: 'integer', fieldName: 'price_cents' })
  priceCents!: number;

  @Property({ type: 'text', fieldName: 'billing_interval' })
  interval!: BillingInterval;

  @Property({ type: 'text' })
  status!: MemberStatus;

  @Property({ type: 'integer', fieldName: 'balance_due_cents' })
  balanceDueCents = 0;
}
