import { DateTimeISOResolver, SafeIntResolver } from 'graphql-scalars';
import { ArgsType, Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import type { ActorKind } from '../../../schema/actor';
import { DateTimeInput } from '../../common/input-scalars';
import { ConnectionArgs, ConnectionType } from '../../common/connection';
import { SortDirection } from '../../common/pagination';
import { graphEnum } from '../../common/graph-enum';

/** Who acted, as audit records name it (schema/actor.ts). */
export const AuditActorKind = graphEnum<ActorKind>(['key', 'user', 'operator', 'system']);
registerEnumType(AuditActorKind, { name: 'AuditActorKind', description: 'KEY (an API key), USER (a signed-in person), OPERATOR (CLI, `/admin`) or SYSTEM (the platform itself)' });

/** The actor of an audit record. */
@ObjectType('AuditActor', { description: 'Who acted: an API key, a signed-in person, the operator or the platform itself' })
export class AuditActorType {
  @Field(() => AuditActorKind)
  kind!: ActorKind;

  @Field(() => ID, { nullable: true, description: "The key's or the person's id; null for the platform, and for the operator unless it was the CLI" })
  id!: string | null;
}

/** One record of the tenant's audit trail (append-only, hash-chained). */
@ObjectType('AuditEvent', { description: 'Who read or changed what, when, from where' })
export class AuditEventType {
  @Field(() => ID)
  id!: string;

  // A tenant's chain may outgrow GraphQL's 32-bit Int; SafeInt holds up to 2^53 - 1.
  @Field(() => SafeIntResolver, { description: "The record's number in the tenant's chain, from 1 without gaps" })
  seq!: number;

  @Field(() => DateTimeISOResolver)
  occurredAt!: Date;

  @Field(() => AuditActorType)
  actor!: AuditActorType;

  @Field({ description: '`<resource>.<verb>`, e.g. `patient.read`, `api_key.issue`, `audit.export`' })
  action!: string;

  @Field({ description: 'e.g. `patient`, `tenant`, `api_key`, `audit_event`' })
  resourceType!: string;

  @Field(() => [ID], { description: 'The ids read or changed; empty when the action names none (an export)' })
  resourceIds!: string[];

  @Field({ description: '`success` or `failure`' })
  outcome!: string;

  @Field(() => ID, { nullable: true, description: "The request's X-Request-Id" })
  requestId!: string | null;

  @Field(() => String, { nullable: true, description: "The client's address at the edge" })
  clientAddress!: string | null;
}

/** AuditEvents as a Relay connection (docs/api.md, "Pagination"). */
@ObjectType('AuditEventConnection')
export class AuditEventConnection extends ConnectionType(AuditEventType, 'AuditEvent') {}

/** Filters of `auditEvents` (and of the REST export); each narrows the result, all together. */
@ArgsType()
export class AuditEventListArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true, description: "Only this actor's records (a key's or a person's id)" })
  actorId?: string | null;

  @Field(() => AuditActorKind, { nullable: true })
  actorKind?: ActorKind | null;

  @Field(() => ID, { nullable: true, description: 'Only records naming this resource id among theirs, e.g. a patient id' })
  resourceId?: string | null;

  @Field(() => String, { nullable: true, description: 'Only this action, exactly, e.g. `patient.read`' })
  action?: string | null;

  @Field(() => DateTimeInput, { nullable: true, description: 'Only records from this instant on (inclusive)' })
  from?: Date | null;

  @Field(() => DateTimeInput, { nullable: true, description: 'Only records up to this instant (inclusive); not before `from`' })
  to?: Date | null;

  @Field(() => SortDirection, { defaultValue: SortDirection.DESC, description: 'By sequence number: newest first by default' })
  sortDirection: SortDirection = SortDirection.DESC;
}
