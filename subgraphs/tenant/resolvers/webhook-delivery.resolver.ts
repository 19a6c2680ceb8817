import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import { toConnection, type Connection } from '../../common/connection';
import { keyValues } from '../../common/keyset';
import { listWindow } from '../../common/list-window';
import { requireScope } from '../../common/require-tenant';
import { DELIVERY_KEYS, WebhookDeliveryRepository, type AttemptRecord, type DeliveryRecord } from '../repositories/webhook-delivery.repository';
import { WebhookDeliveryService } from '../services/webhook-delivery.service';
import { WebhookAttemptType, WebhookDeliveryConnection, WebhookDeliveryListArgs, WebhookDeliveryType } from '../types/webhook-delivery.type';

/** The webhook delivery log: what was sent, every attempt, redelivery and a test event (issue 7). */
@Resolver(() => WebhookDeliveryType)
export class WebhookDeliveryResolver {
  @Query(() => WebhookDeliveryConnection, { description: "The tenant's webhook deliveries, newest first" })
  async webhookDeliveries(@Args() args: WebhookDeliveryListArgs, @Ctx() ctx: SubgraphContext): Promise<Connection<DeliveryRecord>> {
    const scope = requireScope(ctx);
    const slice = await new WebhookDeliveryRepository(ctx.em, scope).page(args, listWindow(args, DELIVERY_KEYS));
    return toConnection(slice, keyValues(DELIVERY_KEYS), (row): DeliveryRecord => row);
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
