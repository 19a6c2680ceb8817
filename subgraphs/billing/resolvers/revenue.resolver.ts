import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import { requireScope } from '../../common/require-tenant';
import { RecordChargeItemInput, RecordSoldPackageInput } from '../inputs/revenue.input';
import { RevenueService } from '../services/revenue.service';
import { ChargeItemView, SoldPackageView } from '../types/revenue.type';

/** Revenue lines (the source of analytics' revenue breakdown, read through `billing.revenue_line`). */
@Resolver()
export class RevenueResolver {
  @Mutation(() => ChargeItemView, { description: 'Records a product or service sale; location, provider and patient names are snapshotted' })
  recordChargeItem(@Arg('input', () => RecordChargeItemInput) input: RecordChargeItemInput, @Ctx() ctx: SubgraphContext): Promise<ChargeItemView> {
    return new RevenueService(ctx.em, requireScope(ctx), ctx.audit).recordChargeItem(input);
  }

  @Mutation(() => SoldPackageView, { description: 'Records a package sale; names are snapshotted' })
  recordSoldPackage(@Arg('input', () => RecordSoldPackageInput) input: RecordSoldPackageInput, @Ctx() ctx: SubgraphContext): Promise<SoldPackageView> {
    return new RevenueService(ctx.em, requireScope(ctx), ctx.audit).recordSoldPackage(input);
  }
}
