import { DateTimeISOResolver } from 'graphql-scalars';
import { ArgsType, Directive, Field, ID, ObjectType } from 'type-graphql';
import { PageArgs, PageType, SortDirection } from '../../common/pagination';

/** A patient of the practice (PHI: never logged). */
@ObjectType('Patient', { description: 'A patient of the practice' })
@Directive('@key(fields: "id")')
export class PatientType {
  @Field(() => ID)
  id!: string;

  @Field()
  firstName!: string;

  @Field()
  lastName!: string;

  @Field(() => String, { nullable: true })
  email!: string | null;

  @Field(() => String, { nullable: true })
  phone!: string | null;

  @Field(() => String, { nullable: true, description: 'Date of birth, YYYY-MM-DD' })
  dateOfBirth!: string | null;

  @Field(() => DateTimeISOResolver)
  createdDate!: Date;

  @Field(() => DateTimeISOResolver)
  updatedDate!: Date;
}

/** A page of patients. */
@ObjectType('PatientPage')
export class PatientPage extends PageType(PatientType) {}

/** Filters of `patients`, ordered by last then first name. */
@ArgsType()
export class PatientListArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Case-insensitive match on name or e-mail; every word must match' })
  search?: string | null;

  @Field(() => SortDirection, { defaultValue: SortDirection.asc, description: 'Order by last name, then first name' })
  sortDirection: SortDirection = SortDirection.asc;
}
