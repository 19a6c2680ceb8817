import { Field, ID, InputType } from 'type-graphql';

/** `createLocation`: a new location of the calling tenant. */
@InputType('CreateLocationInput', { description: 'A clinic location of the tenant: physical (an address) or virtual (telehealth)' })
export class CreateLocationInput {
  @Field({ description: '1 to 200 characters' })
  name!: string;

  @Field(() => Boolean, { nullable: true, description: 'Telehealth location without an address (default false)' })
  isVirtual?: boolean | null;

  @Field(() => String, { nullable: true, description: 'Required for a physical location' })
  addressLineOne?: string | null;

  @Field(() => String, { nullable: true })
  addressLineTwo?: string | null;

  @Field(() => String, { nullable: true, description: 'Required for a physical location' })
  city?: string | null;

  @Field(() => String, { nullable: true })
  state?: string | null;

  @Field(() => String, { nullable: true })
  zipCode?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 code, e.g. US' })
  country?: string | null;

  @Field(() => ID, { nullable: true, description: "The location's id in a partner system" })
  partnerLocationId?: string | null;
}
