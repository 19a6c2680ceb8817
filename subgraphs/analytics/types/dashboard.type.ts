import { DateTimeScalar } from '../../common/date-time.scalar';
import { JSONResolver } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import { ConnectionType } from '../../common/connection';

/** A dashboard as the API shows it; its `widgets` come from DashboardResolver, batched per request. */
@ObjectType('Dashboard', { description: 'An analytics dashboard: a named, laid-out set of widgets' })
export class DashboardType {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'Display name' })
  name!: string;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => ID, { nullable: true, description: 'The location the dashboard is about, if any' })
  locationId!: string | null;

  @Field(() => JSONResolver, { description: 'Front-end grid layout, stored as sent (a JSON object or array)' })
  layout!: unknown;

  // REST keeps the contract's createdDate/updatedDate by aliasing these (rest-bridge/routes/analytics.routes.ts).
  @Field(() => DateTimeScalar)
  createdAt!: Date;

  @Field(() => DateTimeScalar)
  updatedAt!: Date;
}

/** Dashboards as a Relay connection (docs/api.md, "Pagination"). */
@ObjectType('DashboardConnection')
export class DashboardConnection extends ConnectionType(DashboardType, 'Dashboard') {}
