import { DateTimeISOResolver } from 'graphql-scalars';
import { ArgsType, Field, ID, ObjectType } from 'type-graphql';
import { PageArgs, PageType, SortDirection } from '../../common/pagination';

/** An API key of the calling tenant, without its secret. */
@ObjectType('ApiKey', { description: "One of the tenant's API keys (the secret is never shown again)" })
export class ApiKeyType {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true })
  name!: string | null;

  @Field({ description: 'Public start of the key, enough to recognise it' })
  prefix!: string;

  @Field(() => DateTimeISOResolver)
  createdAt!: Date;

  @Field(() => DateTimeISOResolver, { nullable: true })
  revokedAt!: Date | null;
}

/** A page of API keys. */
@ObjectType('ApiKeyPage')
export class ApiKeyPage extends PageType(ApiKeyType) {}

/** Filters of `apiKeys`. */
@ArgsType()
export class ApiKeyListArgs extends PageArgs {
  @Field({ defaultValue: false, description: 'Include revoked keys' })
  includeRevoked: boolean = false;

  @Field(() => SortDirection, { defaultValue: SortDirection.desc, description: 'Order by creation time' })
  sortDirection: SortDirection = SortDirection.desc;
}
