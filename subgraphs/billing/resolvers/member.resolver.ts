import { processorOf } from '../processor/mode-processor';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import type { Connection } from '../../common/connection';
import { requireScope } from '../../common/require-tenant';
import { CreateMemberInput, MemberManualPaymentInput } from '../inputs/member.input';
import { MemberPaymentService } from '../services/member-payment.service';
import { MemberService } from '../services/member.service';
import { PatientRef, reference } from '../types/directory-refs.type';
import { MemberConnection, MemberListArgs, MemberPaymentView, MemberView } from '../types/member.type';
import type { BillingContext } from '../billing-deps';

const members = (ctx: SubgraphContext) => new MemberService(ctx.em, requireScope(ctx), ctx.audit);

/** Members and their manual payments (contract part 4.7). */
@Resolver(() => MemberView)
export class MemberResolver {
  @Query(() => MemberView, {
    nullable: true,
    description: 'One member with payments; null with a NOT_FOUND error for an unknown id',
  })
  member(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<MemberView> {
    return members(ctx).get(id);
  }

  @Query(() => MemberConnection, { description: "The tenant's members, newest first" })
  members(@Args() args: MemberListArgs, @Ctx() ctx: SubgraphContext): Promise<Connection<MemberView>> {
    return members(ctx).list(args);
  }

  @Mutation(() => MemberView, { description: 'A patient of the tenant joins a membership plan' })
  createMember(@Arg('input', () => CreateMemberInput) input: CreateMemberInput, @Ctx() ctx: SubgraphContext): Promise<MemberView> {
    return members(ctx).create(input);
  }

  @Mutation(() => MemberPaymentView, { description: "Charges the member's balance due; a decline answers status FAILED" })
  makeMemberManualPayment(@Arg('input', () => MemberManualPaymentInput) input: MemberManualPaymentInput, @Ctx() ctx: SubgraphContext): Promise<MemberPaymentView> {
    return new MemberPaymentService(ctx.em, requireScope(ctx), processorOf(ctx as BillingContext), ctx.audit).pay(input, ctx.idempotencyKey);
  }

  @FieldResolver(() => PatientRef, { nullable: true, description: 'The patient, resolved by the tenant subgraph' })
  patient(@Root() member: MemberView): PatientRef {
    return reference(member.patientId);
  }
}
