import { SafeIntResolver } from 'graphql-scalars';
import { Field, ID, InputType } from 'type-graphql';
import { MemberStatus, MembershipInterval } from '../types/enums';

/** `createMember`: a patient joins a membership plan. Money in integer cents. */
@InputType('CreateMemberInput', { description: 'A patient holding a membership' })
export class CreateMemberInput {
  @Field(() => ID, { description: 'A patient of the tenant' })
  patientId!: string;

  @Field({ description: 'Plan name, 1 to 200 characters' })
  planName!: string;

  @Field(() => SafeIntResolver, { description: 'Price per interval, integer cents' })
  priceCents!: number;

  @Field(() => MembershipInterval)
  interval!: MembershipInterval;

  @Field(() => MemberStatus, { defaultValue: MemberStatus.ACTIVE })
  status: MemberStatus = MemberStatus.ACTIVE;

  @Field(() => SafeIntResolver, { defaultValue: 0, description: 'What the member owes now, integer cents' })
  balanceDueCents: number = 0;
}

/** Body of `POST /inventory/members/manual-payment` (contract part 4.7). */
@InputType('MemberManualPaymentInput', { description: "Charge a member's balance due to one of the patient's payment methods" })
export class MemberManualPaymentInput {
  @Field(() => ID)
  memberId!: string;

  @Field(() => ID, { description: "A payment method of the member's patient, not archived" })
  paymentMethodId!: string;

  @Field(() => String, { nullable: true, description: 'Kept with the payment, at most 1000 characters' })
  comment?: string | null;
}
