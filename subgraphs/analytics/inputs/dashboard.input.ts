import { JSONResolver } from 'graphql-scalars';
import { Field, ID, InputType } from 'type-graphql';

/** Body of `POST /analytics/dashboards` / `createDashboard`. */
@InputType({ description: 'A new dashboard' })
export class CreateDashboardInput {
  @Field({ description: 'Display name, 1 to 200 characters' })
  name!: string;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => ID, { nullable: true })
  locationId?: string | null;

  @Field(() => JSONResolver, { nullable: true, description: 'Grid layout, a JSON object or array; {} when absent' })
  layout?: unknown;
}

/**
 * Body of `PUT /analytics/dashboards/{dashboard_id}` / `updateDashboard`: only the fields sent
 * change. No initialisers, so an absent field stays absent on the instance (not `undefined` by default).
 */
@InputType({ description: 'Changes to a dashboard; absent fields keep their value' })
export class UpdateDashboardInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => ID, { nullable: true })
  locationId?: string | null;

  @Field(() => JSONResolver, { nullable: true })
  layout?: unknown;
}
