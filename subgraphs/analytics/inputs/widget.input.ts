import { JSONResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int } from 'type-graphql';
import { ChartType } from '../types/enums';

/** A widget's grid cell as sent; ranges are checked by the service (x, y >= 0; w, h >= 1). */
@InputType({ description: "A widget's cell on the dashboard grid" })
export class WidgetPositionInput {
  @Field(() => Int)
  x!: number;

  @Field(() => Int)
  y!: number;

  @Field(() => Int)
  w!: number;

  @Field(() => Int)
  h!: number;
}

/** Body of `POST /analytics/widgets` / `createWidget`. */
@InputType({ description: 'A new widget' })
export class CreateWidgetInput {
  @Field(() => ID, { description: 'The dashboard it belongs to; unknown -> 404' })
  dashboardId!: string;

  @Field({ description: 'Display name, 1 to 200 characters' })
  name!: string;

  @Field(() => ChartType)
  chartType!: ChartType;

  @Field(() => JSONResolver, { description: "Analytics query in Cube's REST shape (a JSON object)" })
  query!: unknown;

  @Field(() => WidgetPositionInput, { nullable: true, description: '{x: 0, y: 0, w: 6, h: 4} when absent' })
  position?: WidgetPositionInput | null;

  @Field({ defaultValue: false })
  isArchived: boolean = false;
}

/** Body of `PUT /analytics/widgets/{widget_id}` / `updateWidget`: only the fields sent change. */
@InputType({ description: 'Changes to a widget; absent fields keep their value' })
export class UpdateWidgetInput {
  @Field(() => ID, { nullable: true, description: "Moves the widget to another of the tenant's dashboards; unknown -> 404" })
  dashboardId?: string | null;

  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => ChartType, { nullable: true })
  chartType?: ChartType | null;

  @Field(() => JSONResolver, { nullable: true })
  query?: unknown;

  @Field(() => WidgetPositionInput, { nullable: true })
  position?: WidgetPositionInput | null;

  @Field(() => Boolean, { nullable: true })
  isArchived?: boolean | null;
}
