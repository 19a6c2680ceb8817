import { Field, ID, InputType, Int } from 'type-graphql';

/** Address lines to change; absent ones stay, null or blank ones are cleared. */
@InputType('TenantAddressInput', { description: 'Partial address: only the lines sent change' })
export class TenantAddressInput {
  @Field(() => String, { nullable: true })
  line1?: string | null;

  @Field(() => String, { nullable: true })
  line2?: string | null;

  @Field(() => String, { nullable: true })
  city?: string | null;

  @Field(() => String, { nullable: true })
  state?: string | null;

  @Field(() => String, { nullable: true })
  postalCode?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 code, e.g. US' })
  country?: string | null;
}

/** Settings to change; absent ones stay. */
@InputType('TenantSettingsInput', { description: 'Partial settings: only the keys sent change' })
export class TenantSettingsInput {
  @Field(() => Int, { nullable: true, description: '0 to 336' })
  appointmentReminderHours?: number | null;

  @Field(() => Boolean, { nullable: true })
  sendReceiptEmails?: boolean | null;

  @Field(() => ID, { nullable: true, description: 'A note template id (UUID), or null for none' })
  defaultNoteTemplateId?: string | null;
}

/** `PUT /tenant/update`: a partial update; fields not sent keep their value. */
@InputType('UpdateTenantInput', { description: 'Partial tenant update: only the fields sent change; null or blank clears an optional field' })
export class UpdateTenantInput {
  @Field(() => String, { nullable: true, description: '1 to 200 characters' })
  name?: string | null;

  @Field(() => String, { nullable: true })
  legalName?: string | null;

  @Field(() => String, { nullable: true, description: 'IANA time zone name, e.g. America/New_York' })
  timezone?: string | null;

  @Field(() => String, { nullable: true, description: 'BCP 47 locale, e.g. en-US' })
  locale?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 4217 currency code, e.g. USD' })
  currency?: string | null;

  @Field(() => String, { nullable: true, description: 'http or https URL' })
  website?: string | null;

  @Field(() => String, { nullable: true })
  phone?: string | null;

  @Field(() => String, { nullable: true, description: 'E-mail address' })
  contactEmail?: string | null;

  @Field(() => String, { nullable: true, description: 'Hex colour #RRGGBB' })
  primaryColor?: string | null;

  @Field(() => TenantAddressInput, { nullable: true, description: 'Null clears the whole address' })
  address?: TenantAddressInput | null;

  @Field(() => TenantSettingsInput, { nullable: true })
  settings?: TenantSettingsInput | null;
}
