import { DateTimeScalar } from '../../common/date-time.scalar';
import { ArgsType, Directive, Field, ID, ObjectType } from 'type-graphql';
import { ConnectionArgs, ConnectionType } from '../../common/connection';

/** A clinician of the practice. */
@ObjectType('Provider', { description: 'A clinician of the practice' })
@Directive('@key(fields: "id")')
export class ProviderType {
  @Field(() => ID)
  id!: string;

  @Field()
  firstName!: string;

  @Field()
  lastName!: string;

  @Field(() => String, { nullable: true, description: 'Credentials, e.g. PT, DPT' })
  title!: string | null;

  @Field(() => String, { nullable: true })
  email!: string | null;

  @Field(() => String, { nullable: true })
  phone!: string | null;

  @Field(() => String, { nullable: true, description: 'National Provider Identifier' })
  npi!: string | null;

  @Field(() => [ID], { description: 'Ids of the locations the provider works at' })
  locationIds!: string[];

  @Field(() => DateTimeScalar)
  createdAt!: Date;

  @Field(() => DateTimeScalar)
  updatedAt!: Date;
}

/** Providers as a Relay connection (docs/api.md, "Pagination"). */
@ObjectType('ProviderConnection')
export class ProviderConnection extends ConnectionType(ProviderType, 'Provider') {}

/** Filters of `providers`, ordered by last then first name. */
@ArgsType()
export class ProviderListArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true, description: 'Case-insensitive match on name, title or e-mail; every word must match' })
  search?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only providers working at this location' })
  locationId?: string | null;
}
