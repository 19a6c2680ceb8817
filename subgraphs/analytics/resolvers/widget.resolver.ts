import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import type { Connection } from '../../common/connection';
import { requireScope } from '../../common/require-tenant';
import type { Widget } from '../entities/widget.entity';
import { CreateWidgetInput, UpdateWidgetInput } from '../inputs/widget.input';
import { WidgetService } from '../services/widget.service';
import { WidgetListArgs } from '../types/widget-list.args';
import { WidgetConnection, WidgetType } from '../types/widget.type';

const service = (ctx: SubgraphContext) => new WidgetService(ctx.em, requireScope(ctx), ctx.audit);

/** Widgets of the calling tenant (names: docs/api.md); thin: arguments -> service -> result. */
@Resolver(() => WidgetType)
export class WidgetResolver {
  @Query(() => WidgetConnection, { description: "The tenant's widgets, newest first by default" })
  widgets(@Args() args: WidgetListArgs, @Ctx() ctx: SubgraphContext): Promise<Connection<Widget>> {
    return service(ctx).list(args);
  }

  @Query(() => WidgetType, {
    nullable: true,
    description: 'One widget; null with a NOT_FOUND error for an unknown id',
  })
  widget(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<Widget> {
    return service(ctx).get(id);
  }

  @Mutation(() => WidgetType, { description: "Creates a widget on one of the tenant's dashboards; its query is validated" })
  createWidget(@Arg('input', () => CreateWidgetInput) input: CreateWidgetInput, @Ctx() ctx: SubgraphContext): Promise<Widget> {
    return service(ctx).create(input);
  }

  @Mutation(() => WidgetType, { description: 'Changes the fields sent' })
  updateWidget(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateWidgetInput) input: UpdateWidgetInput,
    @Ctx() ctx: SubgraphContext,
  ): Promise<Widget> {
    return service(ctx).update(id, input);
  }

  @Mutation(() => Boolean, { description: 'Deletes a widget; true, or NOT_FOUND' })
  async deleteWidget(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<boolean> {
    await service(ctx).delete(id);
    return true;
  }
}
