import { DateTimeScalar } from '../../common/date-time.scalar';
import { Field, ObjectType } from 'type-graphql';

/** The tenant's webhook endpoint configuration (contract part 6.1). */
@ObjectType('WebhookConfig', { description: "The tenant's webhook endpoint: where events go and how they are signed (Standard Webhooks)" })
export class WebhookConfigType {
  @Field(() => String, { nullable: true, description: 'Endpoint URL; null until one is configured' })
  url!: string | null;

  @Field({ description: 'Whether events are delivered' })
  enabled!: boolean;

  @Field(() => [String], { description: 'Subscribed event types, from the catalogue' })
  events!: string[];

  @Field(() => String, { nullable: true, description: 'Recognisable end of the signing secret (whsec_…last4); null until configured' })
  secretHint!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'The whole signing secret (whsec_...): only in the updateWebhookConfig answer that created or rotated it; null everywhere else',
  })
  secret!: string | null;

  @Field(() => DateTimeScalar, { nullable: true, description: 'Null until configured' })
  createdAt!: Date | null;

  @Field(() => DateTimeScalar, { nullable: true, description: 'Null until configured' })
  updatedAt!: Date | null;

  @Field(() => DateTimeScalar, {
    nullable: true,
    description: 'When the platform disabled the endpoint (every attempt failing for a while, or a 410 Gone answer); null once the tenant re-enables it (enabled: true)',
  })
  disabledAt!: Date | null;

  @Field(() => String, { nullable: true, description: 'Why the platform disabled the endpoint; null when it did not' })
  disabledReason!: string | null;
}
