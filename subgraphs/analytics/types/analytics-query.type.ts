import { JSONObjectResolver } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';

/** The answer of `executeAnalyticsQuery`, Cube's `/load` shape. */
@ObjectType('AnalyticsQueryResult', { description: "A query's rows with the normalised query and the members' annotation (Cube's /load answer)" })
export class AnalyticsQueryResultType {
  @Field(() => JSONObjectResolver, { description: 'The query as run: defaults applied, relative date ranges resolved, order as [member, direction] pairs' })
  query!: Record<string, unknown>;

  @Field(() => [JSONObjectResolver], { description: 'One object per row, keyed by member name; measures are JSON numbers (money in integer cents), times wall-clock texts in the query timezone' })
  data!: Record<string, unknown>[];

  @Field(() => JSONObjectResolver, { description: '{measures, dimensions, segments, timeDimensions}: title, shortTitle and type of every key of the rows' })
  annotation!: Record<string, unknown>;
}
