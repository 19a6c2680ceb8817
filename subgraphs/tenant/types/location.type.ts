import { DateTimeScalar } from '../../common/date-time.scalar';
import { ArgsType, Directive, Field, ID, ObjectType } from 'type-graphql';
import { ConnectionArgs, ConnectionType } from '../../common/connection';

/** A practice location, every field of the contract's Location (part 2). */
@ObjectType('Location', { description: 'A place where the practice sees patients, or a virtual (telehealth) one' })
@Directive('@key(fields: "id")')
export class LocationType {
  @Field(() => ID)
  id!: string;

  @Field()
  isVirtual!: boolean;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  addressLineOne!: string | null;

  @Field(() => String, { nullable: true })
  addressLineTwo!: string | null;

  @Field(() => String, { nullable: true })
  city!: string | null;

  @Field(() => String, { nullable: true })
  state!: string | null;

  @Field(() => String, { nullable: true })
  zipCode!: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 code' })
  country!: string | null;

  @Field(() => DateTimeScalar)
  createdAt!: Date;

  @Field(() => ID, { nullable: true, description: "The location's id in a partner system" })
  partnerLocationId!: string | null;
}

/** Locations as a Relay connection (docs/api.md, "Pagination"). */
@ObjectType('LocationConnection')
export class LocationConnection extends ConnectionType(LocationType, 'Location') {}

/** Filters of `locations`, ordered by name. */
@ArgsType()
export class LocationListArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true, description: 'Case-insensitive match on name or city' })
  search?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Only virtual (true) or only physical (false) locations' })
  isVirtual?: boolean | null;
}
