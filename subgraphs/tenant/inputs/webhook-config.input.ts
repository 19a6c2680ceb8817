import { Field, InputType } from 'type-graphql';

/** `PUT /tenant/webhook-config`: a partial update of the webhook configuration. */
@InputType('WebhookConfigInput', { description: 'Partial webhook configuration update: only the fields sent change' })
export class WebhookConfigInput {
  @Field(() => String, { nullable: true, description: 'https URL on a public host (http and private hosts only when the server allows them)' })
  url?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Deliver events (a new configuration is enabled unless this says false)' })
  enabled?: boolean | null;

  @Field(() => [String], { nullable: true, description: 'Event types from the catalogue (a new configuration subscribes to all of them)' })
  events?: string[] | null;

  @Field(() => Boolean, { nullable: true, description: 'Replace the signing secret; the new one is shown once, in this answer' })
  rotateSecret?: boolean | null;
}
