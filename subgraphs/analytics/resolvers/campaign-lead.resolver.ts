import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import { CampaignLeadInput } from '../inputs/campaign-lead.input';
import { CampaignLeadService, type CampaignLeadReceipt } from '../services/campaign-lead.service';
import { CampaignLeadReceiptType } from '../types/campaign.type';

const leads = (ctx: SubgraphContext) => new CampaignLeadService(ctx.em, (tenantId) => ctx.auditFor(tenantId));

/**
 * The two analytics fields that need no tenant: the webhook key identifies the campaign, and with
 * it the tenant. Served without an API key at `POST /opportunity/leads/{webhookKey}`, which asks
 * `campaignAcceptsLeads` before it reads the lead's body and then runs `submitCampaignLead`.
 */
@Resolver()
export class CampaignLeadResolver {
  @Query(() => Boolean, {
    description: 'True when the campaign of this webhook key takes leads; an unknown key is NOT_FOUND and an inactive campaign CONFLICT, as submitCampaignLead answers them. No tenant needed',
  })
  async campaignAcceptsLeads(@Arg('webhookKey') webhookKey: string, @Ctx() ctx: SubgraphContext): Promise<boolean> {
    await leads(ctx).open(webhookKey);
    return true;
  }

  @Mutation(() => CampaignLeadReceiptType, { description: "Records a lead for the campaign whose webhook key this is; no tenant needed" })
  submitCampaignLead(
    @Arg('webhookKey') webhookKey: string,
    @Arg('input', () => CampaignLeadInput) input: CampaignLeadInput,
    @Ctx() ctx: SubgraphContext,
  ): Promise<CampaignLeadReceipt> {
    return leads(ctx).submit(webhookKey, input);
  }
}
