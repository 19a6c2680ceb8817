import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import type { Connection } from '../../common/connection';
import { requireTenant } from '../../common/require-tenant';
import { RevenueBreakdownService } from '../revenue/revenue-breakdown.service';
import { MAX_REVENUE_GROUPS } from '../revenue/revenue-statements';
import { RevenueBreakdownArgs, RevenueGroupsArgs, RevenueGroupSummariesArgs, RevenueSummaryArgs } from '../types/revenue-breakdown.args';
import {
  RevenueBreakdownConnection,
  RevenueGroupItemType,
  RevenueGroupSummaryType,
  RevenueSummaryType,
  type RevenueBreakdownItemType,
} from '../types/revenue-breakdown.type';
import type { AnalyticsContext } from '../analytics-deps';

const service = (ctx: SubgraphContext) => {
  const { statementTimeoutMs, expensive } = (ctx as AnalyticsContext).deps;
  return new RevenueBreakdownService(ctx.em, requireTenant(ctx), ctx.audit, { rollups: true, statementTimeoutMs, share: expensive, signal: ctx.signal });
};

/** The product sales revenue breakdown (contract part 4.3); thin: arguments -> service -> result. */
@Resolver()
export class RevenueBreakdownResolver {
  @Query(() => [RevenueGroupItemType], { description: `Distinct group keys with their line counts, the most recently active group first: a bounded list (at most ${MAX_REVENUE_GROUPS} groups), not a connection` })
  revenueBreakdownGroups(@Args() args: RevenueGroupsArgs, @Ctx() ctx: SubgraphContext): Promise<RevenueGroupItemType[]> {
    return service(ctx).groups(args);
  }

  @Query(() => RevenueBreakdownConnection, { description: 'Revenue lines (charge items and sold packages), filtered and paginated' })
  revenueBreakdown(@Args() args: RevenueBreakdownArgs, @Ctx() ctx: SubgraphContext): Promise<Connection<RevenueBreakdownItemType>> {
    return service(ctx).lines(args);
  }

  @Query(() => [RevenueGroupSummaryType], { description: `Count and amounts per group: a bounded list (at most ${MAX_REVENUE_GROUPS} groups, the first by the sort), not a connection` })
  revenueBreakdownGroupSummaries(@Args() args: RevenueGroupSummariesArgs, @Ctx() ctx: SubgraphContext): Promise<RevenueGroupSummaryType[]> {
    return service(ctx).groupSummaries(args);
  }

  @Query(() => RevenueSummaryType, { description: 'Count and amounts of all filtered lines' })
  revenueBreakdownSummary(@Args() args: RevenueSummaryArgs, @Ctx() ctx: SubgraphContext): Promise<RevenueSummaryType> {
    return service(ctx).summary(args);
  }
}
