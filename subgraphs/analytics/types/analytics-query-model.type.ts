import { Field, Int, ObjectType } from 'type-graphql';

/** One measure or dimension of a cube, as Cube's `/v1/meta` lists it. */
@ObjectType('AnalyticsMember', { description: "A measure or dimension of the query model (Cube's /v1/meta entry)" })
export class AnalyticsMemberType {
  @Field({ description: 'Full member name to put in a query, e.g. revenue.netAmount' })
  name!: string;

  @Field({ description: 'Cube and member title, e.g. Revenue Net Amount' })
  title!: string;

  @Field({ description: 'Member title alone, e.g. Net Amount' })
  shortTitle!: string;

  @Field({ description: 'number (measures), string or time (dimensions): decides the filter operators' })
  type!: string;

  @Field()
  description!: string;

  @Field(() => String, { nullable: true, description: 'cents for money measures, null otherwise' })
  unit!: string | null;
}

/** One cube with its members. */
@ObjectType('AnalyticsCube', { description: 'A cube of the query model: one relation of the tenant data' })
export class AnalyticsCubeType {
  @Field()
  name!: string;

  @Field()
  title!: string;

  @Field(() => [AnalyticsMemberType])
  measures!: AnalyticsMemberType[];

  @Field(() => [AnalyticsMemberType], { description: 'Dimensions, the time dimensions (type time) included' })
  dimensions!: AnalyticsMemberType[];
}

/** The filter operators a member type accepts. */
@ObjectType('AnalyticsOperators', { description: 'The filter operators one member type accepts' })
export class AnalyticsOperatorsType {
  @Field({ description: 'number, string or time' })
  type!: string;

  @Field(() => [String])
  operators!: string[];
}

/** What `executeAnalyticsQuery` and widget queries are checked against, for clients that build queries. */
@ObjectType('AnalyticsQueryModel', { description: "The query model executeAnalyticsQuery and widget queries are validated against (Cube's /v1/meta, plus granularities, operators and limits)" })
export class AnalyticsQueryModelType {
  @Field(() => [AnalyticsCubeType])
  cubes!: AnalyticsCubeType[];

  @Field(() => [String], { description: 'Granularities of a timeDimensions entry' })
  granularities!: string[];

  @Field(() => [AnalyticsOperatorsType], { description: 'Filter operators per member type' })
  operators!: AnalyticsOperatorsType[];

  @Field(() => Int, { description: 'Rows a query answers without a limit' })
  defaultLimit!: number;

  @Field(() => Int, { description: 'Largest limit a query may set' })
  maxLimit!: number;
}
