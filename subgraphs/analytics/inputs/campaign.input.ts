import { SafeIntResolver } from 'graphql-scalars';
import { Field, ID, InputType } from 'type-graphql';
import { DateTimeScalar } from '../../common/date-time.scalar';

/** `createCampaign`: a campaign made by hand (the `external*` fields belong to a platform sync). */
@InputType({ description: 'A new campaign' })
export class CreateCampaignInput {
  @Field({ description: 'Display name, 1 to 200 characters' })
  name!: string;

  @Field(() => ID, { nullable: true })
  locationId?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => ID, { nullable: true })
  platformId?: string | null;

  @Field(() => ID, { nullable: true })
  platformAssetId?: string | null;

  @Field({ defaultValue: true })
  isActive: boolean = true;

  @Field(() => DateTimeScalar, { nullable: true })
  startsAt?: Date | null;

  @Field(() => DateTimeScalar, { nullable: true, description: 'Not before startsAt' })
  endsAt?: Date | null;

  @Field(() => SafeIntResolver, { nullable: true, description: 'Budget in cents, not negative' })
  budgetCents?: number | null;

  @Field(() => ID, { nullable: true })
  pipelineId?: string | null;

  @Field(() => String, { nullable: true, description: 'Where the lead form sends the visitor after a lead (absolute http(s) URL)' })
  redirectUrl?: string | null;
}

/**
 * Body of `PUT /opportunity/campaign/{campaign_id}` / `updateCampaign` (contract part 2, plus
 * `redirectUrl`): only the fields sent change. No initialisers, so absent fields stay absent.
 * REST sends `startsAt`/`endsAt` as the contract's `startDate`/`endDate` (the route's body `rename`).
 */
@InputType({ description: 'Changes to a campaign; absent fields keep their value' })
export class UpdateCampaignInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => ID, { nullable: true })
  platformId?: string | null;

  @Field(() => Boolean, { nullable: true })
  isActive?: boolean | null;

  @Field(() => DateTimeScalar, { nullable: true })
  startsAt?: Date | null;

  @Field(() => DateTimeScalar, { nullable: true, description: 'Not before startsAt' })
  endsAt?: Date | null;

  @Field(() => SafeIntResolver, { nullable: true, description: 'Budget in cents, not negative' })
  budgetCents?: number | null;

  @Field(() => ID, { nullable: true })
  pipelineId?: string | null;

  @Field(() => String, { nullable: true, description: 'Where the lead form sends the visitor after a lead (absolute http(s) URL)' })
  redirectUrl?: string | null;
}
