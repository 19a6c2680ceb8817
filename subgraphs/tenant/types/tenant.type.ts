import { Directive, Field, ID, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';

/** The tenant's whole record, for its own staff (`GET /tenant/private`). */
@ObjectType('Tenant', { description: 'A clinic using the platform: its full configuration' })
@Directive('@key(fields: "id")')
export class TenantType {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'Display name' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Registered legal name' })
  legalName!: string | null;

  @Field({ description: 'IANA time zone name, e.g. America/New_York' })
  timezone!: string;

  @Field({ description: 'BCP 47 locale, e.g. en-US' })
  locale!: string;

  @Field({ description: 'ISO 4217 currency code' })
  currency!: string;

  @Field(() => String, { nullable: true })
  website!: string | null;

  @Field(() => String, { nullable: true })
  phone!: string | null;

  @Field(() => String, { nullable: true, description: 'Where the platform writes to the clinic' })
  contactEmail!: string | null;

  @Field(() => String, { nullable: true, description: 'Brand colour as #RRGGBB' })
  primaryColor!: string | null;

  @Field(() => DateTimeISOResolver)
  createdAt!: Date;

  @Field(() => DateTimeISOResolver)
  updatedAt!: Date;
}

/** What is safe to show a patient (`GET /tenant/public`). */
@ObjectType('PublicTenant', { description: 'The part of a tenant that is safe to show patients' })
export class PublicTenantType {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field()
  timezone!: string;

  @Field()
  locale!: string;

  @Field()
  currency!: string;

  @Field(() => String, { nullable: true })
  website!: string | null;

  @Field(() => String, { nullable: true })
  phone!: string | null;

  @Field(() => String, { nullable: true })
  primaryColor!: string | null;
}
