import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import { CampaignLeadInput } from '../inputs/campaign-lead.input';
import { CampaignLeadService, type CampaignLeadReceipt } from '../services/campaign-lead.service';
import { CampaignLeadReceiptType } from '../types/campaign.type';

/**
 * The one analytics field that needs no tenant: the webhook key identifies the campaign, and with
 * it the tenant. Served without an API key at `POST /opportunity/leads/{webhookKey}`.
 */
@Resolver()
export class CampaignLeadResolver {
  @Mutation(() => CampaignLeadReceiptType, { description: "Records a lead for the campaign whose webhook key this is; no tenant needed" })
  submitCampaignLead(
    @Arg('webhookKey') webhookKey: string,
    @Arg('input', () => CampaignLeadInput) input: CampaignLeadInput,
    @Ctx() ctx: SubgraphContext,
  ): Promise<CampaignLeadReceipt> {
    return new CampaignLeadService(ctx.em).submit(webhookKey, input);
  }
}
