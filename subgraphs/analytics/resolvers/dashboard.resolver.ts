import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import type { Connection } from '../../common/connection';
import { requireScope } from '../../common/require-tenant';
import type { Dashboard } from '../entities/dashboard.entity';
import type { Widget } from '../entities/widget.entity';
import { CreateDashboardInput, UpdateDashboardInput } from '../inputs/dashboard.input';
import { loadWidgetsOfDashboard, MAX_WIDGETS_PER_DASHBOARD } from '../loaders/widgets-by-dashboard.loader';
import { DashboardService } from '../services/dashboard.service';
import { DashboardListArgs } from '../types/dashboard-list.args';
import { DashboardConnection, DashboardType } from '../types/dashboard.type';
import { WidgetType } from '../types/widget.type';

const service = (ctx: SubgraphContext) => new DashboardService(ctx.em, requireScope(ctx), ctx.audit);

/** Dashboards of the calling tenant (names: docs/api.md); thin: arguments -> service -> result. */
@Resolver(() => DashboardType)
export class DashboardResolver {
  @Query(() => DashboardConnection, { description: "The tenant's dashboards, newest first by default" })
  dashboards(@Args() args: DashboardListArgs, @Ctx() ctx: SubgraphContext): Promise<Connection<Dashboard>> {
    return service(ctx).list(args);
  }

  @Query(() => DashboardType, {
    nullable: true,
    description: 'One dashboard; null with a NOT_FOUND error for an unknown id',
  })
  dashboard(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<Dashboard> {
    return service(ctx).get(id);
  }

  @Mutation(() => DashboardType, { description: 'Creates a dashboard' })
  createDashboard(@Arg('input', () => CreateDashboardInput) input: CreateDashboardInput, @Ctx() ctx: SubgraphContext): Promise<Dashboard> {
    return service(ctx).create(input);
  }

  @Mutation(() => DashboardType, { description: 'Changes the fields sent' })
  updateDashboard(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateDashboardInput) input: UpdateDashboardInput,
    @Ctx() ctx: SubgraphContext,
  ): Promise<Dashboard> {
    return service(ctx).update(id, input);
  }

  @Mutation(() => Boolean, { description: 'Deletes a dashboard and its widgets; true, or NOT_FOUND' })
  async deleteDashboard(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<boolean> {
    await service(ctx).delete(id);
    return true;
  }

  @FieldResolver(() => [WidgetType], { description: `Its widgets, archived ones included, oldest first: a bounded list (a dashboard holds at most ${MAX_WIDGETS_PER_DASHBOARD}), not a connection` })
  widgets(@Root() dashboard: Dashboard, @Ctx() ctx: SubgraphContext): Promise<Widget[]> {
    return loadWidgetsOfDashboard(ctx, dashboard.id);
  }
}
