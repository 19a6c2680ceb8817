import { Field, ID, InputType } from 'type-graphql';

/** `createProvider`: a new clinician of the calling tenant. */
@InputType('CreateProviderInput', { description: 'A provider (clinician) of the tenant, with their NPI and the locations they work at' })
export class CreateProviderInput {
  @Field()
  firstName!: string;

  @Field()
  lastName!: string;

  @Field(() => String, { nullable: true, description: 'Credentials, e.g. PT, DPT' })
  title?: string | null;

  @Field(() => String, { nullable: true })
  email?: string | null;

  @Field(() => String, { nullable: true })
  phone?: string | null;

  @Field(() => String, { nullable: true, description: 'National Provider Identifier: 10 digits with a valid check digit' })
  npi?: string | null;

  @Field(() => [ID], { nullable: true, description: "Ids of the tenant's locations the provider works at" })
  locationIds?: string[] | null;
}
