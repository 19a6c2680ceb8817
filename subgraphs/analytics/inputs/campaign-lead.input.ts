import { JSONResolver } from 'graphql-scalars';
import { Field, InputType } from 'type-graphql';

/** Body of `POST /opportunity/leads/{webhookKey}`: a lead from a form or an ad platform. */
@InputType({ description: 'A lead; at least one of name, email and phone' })
export class CampaignLeadInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  email?: string | null;

  @Field(() => String, { nullable: true })
  phone?: string | null;

  @Field(() => JSONResolver, { nullable: true, description: 'Any other form or platform fields as a JSON object, kept with the lead and never shown' })
  fields?: unknown;
}
