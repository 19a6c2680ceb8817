import { DateTimeScalar } from '../../common/date-time.scalar';
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';


/** The tenant's postal address. */
@ObjectType('TenantAddress', { description: "The practice's postal address; every line optional" })
export class TenantAddressType {
  @Field(() => String, { nullable: true })
  line1!: string | null;

  @Field(() => String, { nullable: true })
  line2!: string | null;

  @Field(() => String, { nullable: true })
  city!: string | null;

  @Field(() => String, { nullable: true, description: 'State, province or region' })
  state!: string | null;

  @Field(() => String, { nullable: true })
  postalCode!: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 country code, e.g. US' })
  country!: string | null;
}

/** The tenant's settings, defaults filled in. */
@ObjectType('TenantSettings', { description: 'Practice settings; unset ones show their defaults' })
export class TenantSettingsType {
  @Field(() => Int, { description: 'Hours before an appointment when the reminder goes out (0: no reminders; default 24, at most 336)' })
  appointmentReminderHours!: number;

  @Field({ description: 'E-mail patients a receipt after each payment (default true)' })
  sendReceiptEmails!: boolean;

  @Field(() => ID, { nullable: true, description: 'Note template new notes start from (default none)' })
  defaultNoteTemplateId!: string | null;
}

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

  @Field(() => String, { nullable: true, description: 'Public web site (http or https URL)' })
  website!: string | null;

  @Field(() => String, { nullable: true })
  phone!: string | null;

  @Field(() => String, { nullable: true, description: 'Where the platform writes to the clinic' })
  contactEmail!: string | null;

  @Field(() => String, { nullable: true, description: 'Brand colour as #RRGGBB' })
  primaryColor!: string | null;

  @Field(() => String, { nullable: true, description: 'Absolute URL of the logo, public and immutable' })
  logoUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'Absolute URL of the receipt logo, public and immutable' })
  receiptLogoUrl!: string | null;

  @Field(() => TenantAddressType)
  address!: TenantAddressType;

  @Field(() => TenantSettingsType)
  settings!: TenantSettingsType;

  @Field({ description: "False for a tenant's test twin: the tenant a test key's requests run as, with test data only (docs/api.md, Test mode)" })
  livemode!: boolean;

  @Field(() => DateTimeScalar)
  createdAt!: Date;

  @Field(() => DateTimeScalar)
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

  @Field(() => String, { nullable: true, description: 'Absolute URL of the logo' })
  logoUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'Absolute URL of the receipt logo' })
  receiptLogoUrl!: string | null;
}
