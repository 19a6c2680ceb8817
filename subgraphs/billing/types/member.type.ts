import { SafeIntResolver } from 'graphql-scalars';
import { ArgsType, Field, ID, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../../common/date-time.scalar';
import { ConnectionArgs, ConnectionType } from '../../common/connection';
import { MemberStatus, MembershipInterval, PaymentStatus } from './enums';

/** One manual payment attempt; REST answers `{paymentId, memberId, amountCents, status, failureReason, comment, createdAt}`. */
@ObjectType('MemberPayment', { description: 'A manual payment of a member; declined attempts are kept as FAILED' })
export class MemberPaymentView {
  @Field(() => ID) paymentId!: string;
  @Field(() => ID) memberId!: string;
  @Field(() => ID) paymentMethodId!: string;
  @Field(() => SafeIntResolver, { description: 'Integer cents' }) amountCents!: number;
  @Field(() => PaymentStatus) status!: PaymentStatus;
  @Field(() => String, { nullable: true, description: "The processor's decline code when FAILED" }) failureReason!: string | null;
  @Field(() => String, { nullable: true }) comment!: string | null;
  @Field(() => DateTimeScalar) createdAt!: Date;
}

/** A patient holding a membership (issue 4); `patient` resolves from the tenant subgraph. */
@ObjectType('Member', { description: 'A patient holding a membership plan' })
export class MemberView {
  @Field(() => ID) id!: string;
  @Field(() => ID) patientId!: string;
  @Field() planName!: string;
  @Field(() => SafeIntResolver, { description: 'Price per interval, integer cents' }) priceCents!: number;
  @Field(() => MembershipInterval) interval!: MembershipInterval;
  @Field(() => MemberStatus) status!: MemberStatus;
  @Field(() => SafeIntResolver, { description: 'What the member owes, integer cents' }) balanceDueCents!: number;
  @Field(() => DateTimeScalar) createdAt!: Date;
  @Field(() => DateTimeScalar) updatedAt!: Date;
  @Field(() => [MemberPaymentView], { description: 'Manual payments, newest first' }) payments!: MemberPaymentView[];
}

/** Members as a Relay connection (docs/api.md, "Pagination"). */
@ObjectType('MemberConnection')
export class MemberConnection extends ConnectionType(MemberView, 'Member') {}

/** Filters of `members`, newest first. */
@ArgsType()
export class MemberListArgs extends ConnectionArgs {
  @Field(() => MemberStatus, { nullable: true })
  status?: MemberStatus | null;
}
