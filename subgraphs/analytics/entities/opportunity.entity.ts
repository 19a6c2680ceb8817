import { Entity, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/** Where a lead stands in the sales pipeline; CONVERTED ones make a campaign's `convertedCount`. */
export type OpportunityStatus = 'NEW' | 'CONTACTED' | 'CONVERTED' | 'LOST';

/**
 * A lead a campaign brought in. Contact details and the raw source payload may hold PHI, so they
 * are hidden: never serialised, only counted (`opportunityCount`, `convertedCount`).
 */
@Entity({ tableName: 'opportunities' })
export class Opportunity extends TenantScopedEntity {
  @Property({ type: 'uuid', fieldName: 'campaign_id' })
  campaignId!: string;

  @Property({ type: 'text', nullable: true, hidden: true })
  name: string | null = null;

  @Property({ type: 'text', nullable: true, hidden: true })
  email: string | null = null;

  @Property({ type: 'text', nullable: true, hidden: true })
  phone: string | null = null;

  /** The lead as the form or ad platform posted it. */
  @Property({ type: 'json', hidden: true })
  source: Record<string, unknown> = {};

  @Property({ type: 'text' })
  status: OpportunityStatus = 'NEW';
}
