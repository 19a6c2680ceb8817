import { DateTimeScalar } from '../../common/date-time.scalar';
import { ArgsType, Directive, Field, ID, ObjectType } from 'type-graphql';
import { ConnectionArgs, ConnectionType } from '../../common/connection';
import { SortDirection } from '../../common/pagination';

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

  @Field(() => DateTimeScalar)
  createdAt!: Date;

  @Field(() => DateTimeScalar)
  updatedAt!: Date;
}

/** Patients as a Relay connection. */
@ObjectType('PatientConnection')
export class PatientConnection extends ConnectionType(PatientType, 'Patient') {}

/** Filters of `patients`, ordered by last then first name. */
@ArgsType()
export class PatientListArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true, description: 'Case-insensitive match on name or e-mail; every word must match' })
  search?: string | null;

  @Field(() => SortDirection, { defaultValue: SortDirection.ASC, description: 'Order by last name, then first name' })
  sortDirection: SortDirection = SortDirection.ASC;
}
