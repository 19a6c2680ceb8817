import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { ConflictError, NotFoundError } from '../../../schema/errors';
import type { SubgraphContext } from '../../../platform/context';
import { toPage, type Page } from '../../common/pagination';
import { requireScope } from '../../common/require-tenant';
import { validatePage } from '../../common/validate-page';
import { WebhookConfigRepository } from '../repositories/webhook-config.repository';
import { WebhookDeliveryRepository, type AttemptRecord, type DeliveryRecord } from '../repositories/webhook-delivery.repository';
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
  async redeliverWebhookEvent(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<DeliveryRecord> {
    const scope = requireScope(ctx);
    const outcome = await ctx.em.transactional((tx) => new WebhookDeliveryRepository(tx, scope).requeue(id));
    if (outcome === 'missing') throw new NotFoundError('Webhook delivery not found');
    if (outcome === 'busy') throw new ConflictError('This delivery is being sent right now; retry in a few seconds');
    return (await new WebhookDeliveryRepository(ctx.em, scope).find(id))!;
  }

  @Mutation(() => WebhookDeliveryType, { description: 'Queues a `webhook.test` event to the configured endpoint, whatever it subscribed to' })
  async sendTestWebhookEvent(@Ctx() ctx: SubgraphContext): Promise<DeliveryRecord> {
    const scope = requireScope(ctx);
    const config = await new WebhookConfigRepository(ctx.em, scope).find();
    if (!config?.url || !config.enabled) throw new ConflictError('No enabled webhook endpoint is configured');
    const id = await ctx.em.transactional((tx) => new WebhookDeliveryRepository(tx, scope).insertTest({ message: 'This is a test event from the Healthcare Practice Platform.' }));
    return (await new WebhookDeliveryRepository(ctx.em, scope).find(id))!;
  }

  @FieldResolver(() => [WebhookAttemptType], { description: 'Every attempt, oldest first' })
  async attempts(@Root() delivery: DeliveryRecord, @Ctx() ctx: SubgraphContext): Promise<AttemptRecord[]> {
    return new WebhookDeliveryRepository(ctx.em, requireScope(ctx)).attempts([delivery.id]);
  }
}
