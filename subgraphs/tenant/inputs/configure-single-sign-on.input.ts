import { Field, ID, InputType } from 'type-graphql';

/** `configureSingleSignOn`: the tenant's OpenID Connect provider and this service's client there. */
@InputType('ConfigureSingleSignOnInput', { description: "The tenant's OpenID Connect provider; register this service there with the redirect URI <PUBLIC_URL>/auth/sso/callback" })
export class ConfigureSingleSignOnInput {
  @Field({ description: 'Issuer identifier: an https URL (http only on localhost, for development)' })
  issuer!: string;

  @Field(() => ID, { description: "This service's client id at the provider" })
  clientId!: string;

  @Field({ description: "The client's secret; kept, never shown again" })
  clientSecret!: string;
}
