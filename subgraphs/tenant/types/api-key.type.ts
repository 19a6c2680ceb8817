import { DateTimeScalar } from '../../common/date-time.scalar';
import { ArgsType, Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { ConnectionArgs, ConnectionType } from '../../common/connection';
import { SortDirection } from '../../common/pagination';
import type { KeyKind } from '../services/api-key.service';
import { graphEnum } from '../../common/graph-enum';

/** A key's kind, as its prefix shows it (docs/access.md). */
export const ApiKeyKind = graphEnum<KeyKind>(['full', 'restricted']);
registerEnumType(ApiKeyKind, { name: 'ApiKeyKind', description: 'FULL (`hpp_`: every scope) or RESTRICTED (`hpr_`: its own scopes)' });

/** An API key of the calling tenant, without its secret. */
@ObjectType('ApiKey', { description: "One of the tenant's API keys (the secret is never shown again)" })
export class ApiKeyType {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true })
  name!: string | null;

  @Field({ description: 'Public start of the key, enough to recognise it' })
  prefix!: string;

  @Field(() => ApiKeyKind)
  kind!: KeyKind;

  @Field({ description: 'False for a test key (prefix `hpp_test_`/`hpr_test_`), whose requests see only the test data of its tenant (docs/api.md, Test mode)' })
  livemode!: boolean;

  @Field(() => [String], { nullable: true, description: "A restricted key's scopes (docs/access.md); null for a full key, which has every scope" })
  scopes!: string[] | null;

  @Field(() => DateTimeScalar)
  createdAt!: Date;

  @Field(() => DateTimeScalar, { nullable: true, description: 'When the key stops working; null when it does not expire' })
  expiresAt!: Date | null;

  @Field(() => DateTimeScalar, { nullable: true })
  revokedAt!: Date | null;
}

/** ApiKeys as a Relay connection (docs/api.md, "Pagination"). */
@ObjectType('ApiKeyConnection')
export class ApiKeyConnection extends ConnectionType(ApiKeyType, 'ApiKey') {}

/** Filters of `apiKeys`. */
@ArgsType()
export class ApiKeyListArgs extends ConnectionArgs {
  @Field({ defaultValue: false, description: 'Include revoked keys' })
  includeRevoked: boolean = false;

  @Field(() => SortDirection, { defaultValue: SortDirection.DESC, description: 'Order by creation time' })
  sortDirection: SortDirection = SortDirection.DESC;
}
