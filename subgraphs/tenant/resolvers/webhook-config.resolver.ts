import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import { requireScope } from '../../common/require-tenant';
import { WebhookConfigInput } from '../inputs/webhook-config.input';
import { TenantService } from '../services/tenant.service';
import { WebhookConfigService } from '../services/webhook-config.service';
import { toTenantView, type TenantView } from '../tenant-view';
import { TenantType } from '../types/tenant.type';
import { WebhookConfigType } from '../types/webhook-config.type';
import type { WebhookConfigView } from '../webhook-config-view';
import type { TenantContext } from '../tenant-deps';

/** The webhook configuration: its own query, its mutation, and `Tenant.webhookConfig`. */
@Resolver(() => TenantType)
export class WebhookConfigResolver {
  @Query(() => WebhookConfigType, { description: "The tenant's webhook configuration; url null and enabled false until one is saved. Never the secret" })
  webhookConfig(@Ctx() ctx: SubgraphContext): Promise<WebhookConfigView> {
    return new WebhookConfigService(ctx.em, requireScope(ctx), ctx.audit).get();
  }

  @Mutation(() => TenantType, {
    description: 'Changes the webhook configuration and returns the tenant; its webhookConfig.secret is the whole secret only when this call created or rotated it',
  })
  async updateWebhookConfig(@Arg('input', () => WebhookConfigInput) input: WebhookConfigInput, @Ctx() ctx: SubgraphContext): Promise<TenantView> {
    const scope = requireScope(ctx);
    const webhookConfig = await new WebhookConfigService(ctx.em, scope, ctx.audit, (ctx as TenantContext).deps.allowInsecureWebhooks).update(input);
    return { ...toTenantView(await new TenantService(ctx.reads).current(scope), ctx.publicUrl), webhookConfig };
  }

  @FieldResolver(() => WebhookConfigType, {
    name: 'webhookConfig',
    description: 'The webhook configuration (the secret only in the updateWebhookConfig answer that made it)',
  })
  tenantWebhookConfig(@Root() tenant: TenantView, @Ctx() ctx: SubgraphContext): Promise<WebhookConfigView> | WebhookConfigView {
    return tenant.webhookConfig ?? new WebhookConfigService(ctx.em, requireScope(ctx), ctx.audit).get();
  }
}
