import { ArgsType, Field, ID } from 'type-graphql';
import { ConnectionArgs } from '../../common/connection';
import { SortDirection } from '../../common/pagination';
import { ChartType, WidgetSortField } from './enums';

/** Arguments of `widgets` (REST `GET /analytics/widgets`). */
@ArgsType()
export class WidgetListArgs extends ConnectionArgs {
  @Field(() => WidgetSortField, { defaultValue: WidgetSortField.CREATED_AT, description: 'Field to order by' })
  sortBy: WidgetSortField = WidgetSortField.CREATED_AT;

  @Field(() => SortDirection, { defaultValue: SortDirection.DESC })
  sortDirection: SortDirection = SortDirection.DESC;

  @Field(() => ID, { nullable: true, description: "Only widgets whose dashboard belongs to this location" })
  locationId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only widgets of this dashboard' })
  dashboardId?: string | null;

  @Field(() => ChartType, { nullable: true })
  chartType?: ChartType | null;

  @Field(() => Boolean, { nullable: true, description: 'Only archived (true) or only active (false) widgets; both when absent' })
  isArchived?: boolean | null;
}
