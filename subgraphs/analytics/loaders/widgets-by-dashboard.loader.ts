import type { SubgraphContext } from '../../shared/context';
import type { Widget } from '../entities/widget.entity';
import { WidgetRepository } from '../repositories/widget.repository';

/** Pending lookups of one request, answered together. */
interface Batch {
  ids: Set<string>;
  result: Promise<Map<string, Widget[]>>;
}

// One pending batch per request context: a page of dashboards asks for its widgets in one statement.
const pending = new WeakMap<SubgraphContext, Batch>();

/**
 * The widgets of one dashboard, batched with every other dashboard resolved in the same tick
 * (DataLoader's scheduling, without the dependency): GraphQL resolves the `widgets` field of all
 * items of a list before any database answer comes back, so they share one `where in (...)`.
 */
export function loadWidgetsOfDashboard(ctx: SubgraphContext, dashboardId: string): Promise<Widget[]> {
  let batch = pending.get(ctx);
  if (!batch) {
    const ids = new Set<string>();
    const result = new Promise<Map<string, Widget[]>>((resolve, reject) => {
      // After the current resolvers have queued their ids: the next tick after the promise jobs.
      Promise.resolve().then(() =>
        process.nextTick(() => {
          pending.delete(ctx);
          new WidgetRepository(ctx.em)
            .ofDashboards([...ids])
            .then((widgets) => {
              const byDashboard = new Map<string, Widget[]>([...ids].map((id) => [id, []]));
              for (const widget of widgets) byDashboard.get(widget.dashboardId)?.push(widget);
              resolve(byDashboard);
            }, reject);
        }),
      );
    });
    batch = { ids, result };
    pending.set(ctx, batch);
  }
  batch.ids.add(dashboardId);
  return batch.result.then((byDashboard) => byDashboard.get(dashboardId) ?? []);
}
