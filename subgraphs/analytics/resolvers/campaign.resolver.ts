import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import type { Connection } from '../../common/connection';
import { requireScope } from '../../common/require-tenant';
import { CreateCampaignInput, UpdateCampaignInput } from '../inputs/campaign.input';
import type { CampaignView } from '../services/campaign-view';
import { CampaignService } from '../services/campaign.service';
import { CampaignListArgs } from '../types/campaign-list.args';
import { CampaignConnection, CampaignType } from '../types/campaign.type';

const service = (ctx: SubgraphContext) => new CampaignService(ctx.em, requireScope(ctx), ctx.publicUrl, ctx.audit);

/** Campaigns of the calling tenant (names: docs/api.md); thin: arguments -> service -> result. */
@Resolver(() => CampaignType)
export class CampaignResolver {
  @Query(() => CampaignConnection, { description: "The tenant's campaigns with their opportunity counts, newest first by default" })
  campaigns(@Args() args: CampaignListArgs, @Ctx() ctx: SubgraphContext): Promise<Connection<CampaignView>> {
    return service(ctx).list(args);
  }

  @Query(() => CampaignType, {
    nullable: true,
    description: 'One campaign; null with a NOT_FOUND error for an unknown id',
  })
  campaign(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<CampaignView> {
    return service(ctx).get(id);
  }

  @Mutation(() => CampaignType, { description: 'Creates a campaign with a fresh lead webhook' })
  createCampaign(@Arg('input', () => CreateCampaignInput) input: CreateCampaignInput, @Ctx() ctx: SubgraphContext): Promise<CampaignView> {
    return service(ctx).create(input);
  }

  @Mutation(() => CampaignType, { description: 'Changes the fields sent' })
  updateCampaign(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateCampaignInput) input: UpdateCampaignInput,
    @Ctx() ctx: SubgraphContext,
  ): Promise<CampaignView> {
    return service(ctx).update(id, input);
  }
}
