import { JSONResolver } from 'graphql-scalars';
import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import { requireScope, requireTenant } from '../../common/require-tenant';
import { AnalyticsQueryService, type AnalyticsQueryResult } from '../services/analytics-query.service';
import { describeModel } from '../query/describe-model';
import { AnalyticsQueryModelType } from '../types/analytics-query-model.type';
import { AnalyticsQueryResultType } from '../types/analytics-query.type';
import type { AnalyticsContext } from '../analytics-deps';

/** The analytics query engine (contract part 4.2, `POST /analytics/widgets/execute-query`) and the model it validates against. */
@Resolver()
export class AnalyticsQueryResolver {
  @Query(() => AnalyticsQueryResultType, { description: "Runs an analytics query in Cube's REST format (or its {query} envelope) over the tenant's data" })
  executeAnalyticsQuery(@Arg('query', () => JSONResolver) query: unknown, @Ctx() ctx: SubgraphContext): Promise<AnalyticsQueryResult> {
    // Each field (each alias of a request too) is one unit of the tenant's share, dropped if its client leaves first.
    const { statementTimeoutMs, expensive } = (ctx as AnalyticsContext).deps;
    return new AnalyticsQueryService(ctx.em, requireScope(ctx), ctx.audit, { statementTimeoutMs, share: expensive, signal: ctx.signal }).execute(query);
  }

  @Query(() => AnalyticsQueryModelType, { description: "The query model queries are validated against: cubes, measures, dimensions, granularities, filter operators (Cube's /v1/meta)" })
  analyticsQueryModel(@Ctx() ctx: SubgraphContext): AnalyticsQueryModelType {
    // The model is the same for every tenant; asking still takes an authenticated tenant, like every field.
    requireTenant(ctx);
    return describeModel();
  }
}
