import { ArgsType, Field, ID } from 'type-graphql';
import { ConnectionArgs } from '../../common/connection';
import { SortDirection } from '../../common/pagination';
import { CampaignSortField } from './enums';

/** Arguments of `campaigns`. */
@ArgsType()
export class CampaignListArgs extends ConnectionArgs {
  @Field(() => CampaignSortField, { defaultValue: CampaignSortField.CREATED_AT, description: 'Field to order by' })
  sortBy: CampaignSortField = CampaignSortField.CREATED_AT;

  @Field(() => SortDirection, { defaultValue: SortDirection.DESC })
  sortDirection: SortDirection = SortDirection.DESC;

  @Field(() => ID, { nullable: true, description: 'Only campaigns of this location' })
  locationId?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Only active (true) or inactive (false) campaigns' })
  isActive?: boolean | null;

  @Field(() => String, { nullable: true, description: 'Only campaigns whose name contains this text (case-insensitive)' })
  name?: string | null;
}
