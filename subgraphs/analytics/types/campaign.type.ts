import { SafeIntResolver } from 'graphql-scalars';
import { DateTimeScalar } from '../../common/date-time.scalar';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { ConnectionType } from '../../common/connection';

/** The campaign's inbound lead webhook (contract part 2: webhookKey, webhookUrl, redirectUrl). */
@ObjectType('CampaignWebhook', { description: "The campaign's inbound lead endpoint" })
export class CampaignWebhookType {
  @Field({ description: 'Secret part of webhookUrl; whoever holds it can post leads' })
  webhookKey!: string;

  @Field({ description: 'Where a form or ad platform posts leads (POST, no API key)' })
  webhookUrl!: string;

  @Field(() => String, { nullable: true, description: 'Where the lead form sends the visitor after a lead' })
  redirectUrl!: string | null;
}

/** A campaign record exactly as contract part 2 lists it. */
@ObjectType('Campaign', { description: 'A marketing campaign and the leads it brought in' })
export class CampaignType {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => ID, { nullable: true })
  locationId!: string | null;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => ID, { nullable: true })
  platformId!: string | null;

  @Field(() => ID, { nullable: true })
  platformAssetId!: string | null;

  @Field(() => ID, { nullable: true, description: 'Set by the ad platform sync' })
  externalCampaignId!: string | null;

  @Field(() => String, { nullable: true })
  externalResourceName!: string | null;

  @Field(() => String, { nullable: true })
  externalName!: string | null;

  @Field(() => String, { nullable: true })
  externalStatus!: string | null;

  @Field(() => String, { nullable: true })
  externalCurrency!: string | null;

  @Field(() => SafeIntResolver, { nullable: true })
  externalDailyBudgetCents!: number | null;

  @Field(() => SafeIntResolver, { nullable: true })
  externalLifetimeBudgetCents!: number | null;

  @Field(() => DateTimeScalar, { nullable: true })
  externalLastSeenAt!: Date | null;

  @Field(() => DateTimeScalar, { nullable: true })
  externalLastSyncedAt!: Date | null;

  @Field(() => DateTimeScalar, { nullable: true })
  externalStaleAt!: Date | null;

  @Field(() => String, { nullable: true })
  externalSyncError!: string | null;

  @Field()
  isActive!: boolean;

  // Stored as start_date/end_date; REST keeps those names by aliasing (rest-bridge/routes/campaign.routes.ts).
  @Field(() => DateTimeScalar, { nullable: true, name: 'startsAt' })
  startDate!: Date | null;

  @Field(() => DateTimeScalar, { nullable: true, name: 'endsAt' })
  endDate!: Date | null;

  @Field(() => SafeIntResolver, { nullable: true, description: 'Budget in cents' })
  budgetCents!: number | null;

  @Field(() => ID, { nullable: true })
  pipelineId!: string | null;

  @Field(() => CampaignWebhookType)
  webhook!: CampaignWebhookType;

  @Field(() => DateTimeScalar)
  createdAt!: Date;

  @Field(() => DateTimeScalar)
  updatedAt!: Date;

  @Field(() => Int, { description: 'Opportunities (leads) the campaign brought in' })
  opportunityCount!: number;

  @Field(() => Int, { description: 'Of those, the ones converted' })
  convertedCount!: number;
}

/** Campaigns as a Relay connection (docs/api.md, "Pagination"). */
@ObjectType('CampaignConnection')
export class CampaignConnection extends ConnectionType(CampaignType, 'Campaign') {}

/** What `submitCampaignLead` answers (REST 201 body). */
@ObjectType('CampaignLeadReceipt', { description: 'A lead recorded' })
export class CampaignLeadReceiptType {
  @Field(() => ID, { description: 'The opportunity created for the lead' })
  opportunityId!: string;

  @Field(() => String, { nullable: true, description: "The campaign's redirectUrl: where the form sends the visitor next" })
  redirectUrl!: string | null;
}
