import { DateTimeScalar } from '../../common/date-time.scalar';
import { JSONObjectResolver } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { ConnectionType } from '../../common/connection';
import { ChartType } from './enums';

/** A widget's cell on the dashboard grid. */
@ObjectType('WidgetPosition', { description: "A widget's cell on the dashboard grid" })
export class WidgetPositionType {
  @Field(() => Int, { description: 'Column, from 0' })
  x!: number;

  @Field(() => Int, { description: 'Row, from 0' })
  y!: number;

  @Field(() => Int, { description: 'Width in columns, at least 1' })
  w!: number;

  @Field(() => Int, { description: 'Height in rows, at least 1' })
  h!: number;
}

/** A widget as the API shows it. */
@ObjectType('Widget', { description: 'One chart of a dashboard' })
export class WidgetType {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  dashboardId!: string;

  @Field()
  name!: string;

  @Field(() => ChartType)
  chartType!: ChartType;

  @Field(() => JSONObjectResolver, { description: "Analytics query in Cube's REST shape: measures, dimensions, timeDimensions, filters, order, limit, offset, timezone" })
  query!: Record<string, unknown>;

  @Field({ description: "IANA time zone the widget's query runs in (its query's timezone): the tenant's unless the widget names one" })
  timezone!: string;

  @Field(() => WidgetPositionType)
  position!: WidgetPositionType;

  @Field()
  isArchived!: boolean;

  @Field(() => DateTimeScalar)
  createdAt!: Date;

  @Field(() => DateTimeScalar)
  updatedAt!: Date;
}

/** Widgets as a Relay connection (docs/api.md, "Pagination"). */
@ObjectType('WidgetConnection')
export class WidgetConnection extends ConnectionType(WidgetType, 'Widget') {}
