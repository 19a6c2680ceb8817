import { Field, InputType } from 'type-graphql';

/** `createPatient`: a new patient of the calling tenant. */
@InputType('CreatePatientInput', { description: 'A patient of the tenant (personal health information: never logged)' })
export class CreatePatientInput {
  @Field()
  firstName!: string;

  @Field()
  lastName!: string;

  @Field(() => String, { nullable: true })
  email?: string | null;

  @Field(() => String, { nullable: true })
  phone?: string | null;

  @Field(() => String, { nullable: true, description: 'Date of birth, YYYY-MM-DD' })
  dateOfBirth?: string | null;
}
