import type { SubgraphContext } from '../../../platform/context';
import { requestLoader } from '../../common/request-loader';
import { requireScope } from '../../common/require-tenant';
import type { Widget } from '../entities/widget.entity';
import { WidgetRepository } from '../repositories/widget.repository';

/**
 * The widgets of one dashboard, batched with every other dashboard resolved at the same level:
 * a page of dashboards asks for its widgets in one `where in (...)`.
 */
export async function loadWidgetsOfDashboard(ctx: SubgraphContext, dashboardId: string): Promise<Widget[]> {
  const loader = requestLoader(ctx, 'widgetsOfDashboard', async (ids) => {
    const byDashboard = new Map<string, Widget[]>(ids.map((id) => [id, []]));
    for (const widget of await new WidgetRepository(ctx.em, requireScope(ctx)).ofDashboards(ids)) byDashboard.get(widget.dashboardId)?.push(widget);
    return byDashboard;
  });
  return (await loader.load(dashboardId)) ?? [];
}
