import { ArgsType, Field, ID } from 'type-graphql';
import { ConnectionArgs } from '../../common/connection';
import { SortDirection } from '../../common/pagination';
import { DashboardSortField } from './enums';

/** Arguments of `dashboards` (REST `GET /analytics/dashboards`). */
@ArgsType()
export class DashboardListArgs extends ConnectionArgs {
  @Field(() => DashboardSortField, { defaultValue: DashboardSortField.CREATED_AT, description: 'Field to order by' })
  sortBy: DashboardSortField = DashboardSortField.CREATED_AT;

  @Field(() => SortDirection, { defaultValue: SortDirection.DESC })
  sortDirection: SortDirection = SortDirection.DESC;

  @Field(() => ID, { nullable: true, description: 'Only dashboards of this location' })
  locationId?: string | null;

  @Field(() => String, { nullable: true, description: 'Only dashboards whose name contains this text (case-insensitive)' })
  name?: string | null;
}
