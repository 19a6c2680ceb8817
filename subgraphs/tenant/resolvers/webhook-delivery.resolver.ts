import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import { toPage, type Page } from '../../common/pagination';
import { requireScope } from '../../common/require-tenant';
import { validatePage } from '../../common/validate-page';
import { WebhookDeliveryRepository, type AttemptRecord, type DeliveryRecord } from '../repositories/webhook-delivery.repository';
import { WebhookDeliveryService } from '../services/webhook-delivery.service';
import { WebhookAttemptType, WebhookDeliveryListArgs, WebhookDeliveryPage, WebhookDeliveryType } from '../types/webhook-delivery.type';

/** The webhook delivery log: what was sent, every attempt, redelivery and a test event (issue 7). */
@Resolver(() => WebhookDeliveryType)
export class WebhookDeliveryResolver {
  @Query(() => WebhookDeliveryPage, { description: "The tenant's webhook deliveries, newest first" })
  async webhookDeliveries(@Args() args: WebhookDeliveryListArgs, @Ctx() ctx: SubgraphContext): Promise<Page<DeliveryRecord>> {
    const scope = requireScope(ctx);
    validatePage(args);
    const [items, total] = await new WebhookDeliveryRepository(ctx.em, scope).page(args, args.perPage, (args.page - 1) * args.perPage);
    return toPage(items, total, args);
  }

  @Mutation(() => WebhookDeliveryType, { description: 'Sends a delivered or failed event again, from a fresh retry schedule (same webhook-id)' })
  redeliverWebhookEvent(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<DeliveryRecord> {
    return new WebhookDeliveryService(ctx.em, requireScope(ctx), ctx.audit).redeliver(id);
  }

  @Mutation(() => WebhookDeliveryType, { description: 'Queues a `webhook.test` event to the configured endpoint, whatever it subscribed to' })
  sendTestWebhookEvent(@Ctx() ctx: SubgraphContext): Promise<DeliveryRecord> {
    return new WebhookDeliveryService(ctx.em, requireScope(ctx), ctx.audit).sendTest();
  }

  @FieldResolver(() => [WebhookAttemptType], { description: 'Every attempt, oldest first' })
  async attempts(@Root() delivery: DeliveryRecord, @Ctx() ctx: SubgraphContext): Promise<AttemptRecord[]> {
    return new WebhookDeliveryRepository(ctx.em, requireScope(ctx)).attempts([delivery.id]);
  }
}
