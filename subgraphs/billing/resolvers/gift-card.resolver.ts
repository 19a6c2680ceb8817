import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import type { BillingContext } from '../billing-deps';
import type { Connection } from '../../common/connection';
import { requireScope } from '../../common/require-tenant';
import { IssueGiftCardInput } from '../inputs/gift-card.input';
import { GiftCardService } from '../services/gift-card.service';
import { IssuedGiftCardConnection, IssuedGiftCardListArgs, IssuedGiftCardView } from '../types/gift-card.type';

const service = (ctx: SubgraphContext) => new GiftCardService(ctx.em, requireScope(ctx), ctx.audit, (ctx as BillingContext).deps.notificationDailyLimit);

/** Issued gift cards (contract parts 3 and 4.6); thin: arguments -> service -> result. */
@Resolver(() => IssuedGiftCardView)
export class GiftCardResolver {
  @Query(() => IssuedGiftCardView, {
    nullable: true,
    description: 'One issued gift card with its transactions; null with a NOT_FOUND error for an unknown id',
  })
  issuedGiftCard(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<IssuedGiftCardView> {
    return service(ctx).get(id);
  }

  @Query(() => IssuedGiftCardConnection, { description: "The tenant's issued gift cards, newest first" })
  issuedGiftCards(@Args() args: IssuedGiftCardListArgs, @Ctx() ctx: SubgraphContext): Promise<Connection<IssuedGiftCardView>> {
    return service(ctx).list(args);
  }

  @Mutation(() => IssuedGiftCardView, { description: 'Issues a PENDING gift card with a fresh code' })
  issueGiftCard(@Arg('input', () => IssueGiftCardInput) input: IssueGiftCardInput, @Ctx() ctx: SubgraphContext): Promise<IssuedGiftCardView> {
    return service(ctx).issue(input);
  }

  @Mutation(() => IssuedGiftCardView, { description: 'PENDING -> ACTIVE; CONFLICT when the card is not PENDING' })
  activateGiftCard(
    @Arg('id', () => ID) id: string,
    @Arg('sendNotification', () => Boolean, { defaultValue: true, description: 'E-mail the recipient (unless the card suppresses it); default true' }) sendNotification: boolean,
    @Ctx() ctx: SubgraphContext,
  ): Promise<IssuedGiftCardView> {
    return service(ctx).activate(id, sendNotification, ctx.idempotencyKey);
  }
}
