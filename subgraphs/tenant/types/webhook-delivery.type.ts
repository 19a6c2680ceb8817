import { DateTimeISOResolver } from 'graphql-scalars';
import { ArgsType, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ConnectionArgs, ConnectionType } from '../../common/connection';

/** Where a delivery stands. */
export enum WebhookDeliveryStatus {
  PENDING = 'pending',
  DELIVERED = 'delivered',
  FAILED = 'failed',
}
registerEnumType(WebhookDeliveryStatus, { name: 'WebhookDeliveryStatus', description: 'PENDING until a 2xx (DELIVERED) or the last retry / a 410 (FAILED)' });

/** One HTTP attempt of a delivery. */
@ObjectType('WebhookAttempt', { description: 'One HTTP attempt of a webhook delivery: when, the status answered (null when none) and how long it took' })
export class WebhookAttemptType {
  @Field(() => Int)
  attemptNumber!: number;

  @Field(() => DateTimeISOResolver)
  attemptedAt!: Date;

  @Field(() => Int, { nullable: true, description: 'HTTP status; null when no response came (timeout, network error)' })
  statusCode!: number | null;

  @Field(() => Int)
  durationMs!: number;

  @Field(() => String, { nullable: true })
  error!: string | null;
}

/** One event sent (or being sent) to the tenant's webhook endpoint. */
@ObjectType('WebhookDelivery', { description: "One event sent to the tenant's webhook endpoint, with its attempts and retries" })
export class WebhookDeliveryType {
  @Field(() => ID, { description: 'The event id, sent as `webhook-id` on every attempt' })
  id!: string;

  @Field()
  eventType!: string;

  @Field(() => WebhookDeliveryStatus)
  status!: WebhookDeliveryStatus;

  @Field({ description: 'The exact JSON body signed and sent: {type, timestamp, data}' })
  payload!: string;

  @Field(() => Int)
  attemptCount!: number;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the next attempt is due (pending only)' })
  nextAttemptAt!: Date | null;

  @Field(() => Int, { nullable: true })
  lastStatus!: number | null;

  @Field(() => String, { nullable: true })
  lastError!: string | null;

  @Field(() => DateTimeISOResolver, { nullable: true })
  deliveredAt!: Date | null;

  @Field(() => DateTimeISOResolver)
  createdAt!: Date;
}

/** WebhookDeliverys as a Relay connection (docs/api.md, "Pagination"). */
@ObjectType('WebhookDeliveryConnection')
export class WebhookDeliveryConnection extends ConnectionType(WebhookDeliveryType, 'WebhookDelivery') {}

/** Filters of `webhookDeliveries`. */
@ArgsType()
export class WebhookDeliveryListArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true, description: 'Only this event type, e.g. gift_card.activated' })
  eventType?: string | null;

  @Field(() => WebhookDeliveryStatus, { nullable: true })
  status?: WebhookDeliveryStatus | null;
}
