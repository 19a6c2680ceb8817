import type { SubgraphContext } from '../../../platform/context';
import { requestLoader } from '../../common/request-loader';
import { requireScope } from '../../common/require-tenant';
import type { Widget } from '../entities/widget.entity';
import { MAX_WIDGETS_PER_DASHBOARD, WidgetRepository } from '../repositories/widget.repository';

export { MAX_WIDGETS_PER_DASHBOARD };

/**
 * The widgets of one dashboard (the first MAX_WIDGETS_PER_DASHBOARD, oldest first), batched with every other dashboard resolved at the same level:
 * a page of dashboards asks for its widgets in one `where in (...)`.
 */
export async function loadWidgetsOfDashboard(ctx: SubgraphContext, dashboardId: string): Promise<Widget[]> {
  const loader = requestLoader(ctx, 'widgetsOfDashboard', async (ids) => {
    const byDashboard = new Map<string, Widget[]>(ids.map((id) => [id, []]));
    for (const widget of await new WidgetRepository(ctx.em, requireScope(ctx)).ofDashboards(ids)) {
      const list = byDashboard.get(widget.dashboardId);
      if (list && list.length < MAX_WIDGETS_PER_DASHBOARD) list.push(widget);
    }
    return byDashboard;
  });
  return (await loader.load(dashboardId)) ?? [];
}
