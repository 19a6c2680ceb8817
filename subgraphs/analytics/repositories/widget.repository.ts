import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SortDirection } from '../../common/pagination';
import { storedId } from '../../../platform/ids';
import type { TenantScope } from '../../../platform/tenant-scope';
import { TenantTimeZone } from '../entities/tenant-time-zone.entity';
import { EMPTY_SLICE, type ListSlice } from '../../common/connection';
import { findSlice } from '../../common/keyset';
import { byFieldThenId, type ListWindow, type SortKey } from '../../common/list-window';
import { Widget } from '../entities/widget.entity';
import { type ChartType, WidgetSortField } from '../types/enums';
import type { ReadConnection } from '../../../platform/replica/stale-read';

/** Entity property behind each `sort_by` value. */
const SORT_COLUMNS: Record<WidgetSortField, 'name' | 'chartType' | 'createdAt' | 'updatedAt'> = {
  [WidgetSortField.NAME]: 'name',
  [WidgetSortField.CHART_TYPE]: 'chartType',
  [WidgetSortField.CREATED_AT]: 'createdAt',
  [WidgetSortField.UPDATED_AT]: 'updatedAt',
};

/** What a widget list asks for; `dashboardIds` narrows to a set already resolved (a location's dashboards). */
export interface WidgetQueryArgs {
  sortBy: WidgetSortField;
  sortDirection: SortDirection;
  dashboardId?: string | null;
  dashboardIds?: string[];
  chartType?: ChartType | null;
  isArchived?: boolean | null;
}

/** The most widgets a dashboard holds and `Dashboard.widgets` lists: a bounded list, not a connection (docs/api.md, "Pagination"). */
export const MAX_WIDGETS_PER_DASHBOARD = 100;

/** Queries of the widgets table; each bound to the scope's tenant. */
export class WidgetRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** A new widget of the scope's tenant, added to the unit of work: the caller's transaction (or `save`) writes it. */
  add(fields: Record<string, unknown>): Widget {
    return this.em.create(Widget, { ...fields, tenantId: this.scope.tenantId } as never);
  }

  /** The tenant's widget with this id, or null (unknown, malformed and other tenants' ids alike). */
  findById(id: string): Promise<Widget | null> {
    const key = storedId(id);
    return key ? this.em.findOne(Widget, { id: key, tenantId: this.scope.tenantId }) : Promise.resolve(null);
  }

  /** One window and the total: two statements (rows, count) on `connection`. A dashboard id that cannot exist matches nothing (a filter, not a lookup: no 404). */
  async list(args: WidgetQueryArgs, window: ListWindow, connection: ReadConnection = 'write'): Promise<ListSlice<Widget>> {
    const dashboardId = args.dashboardId == null ? null : storedId(args.dashboardId);
    if (args.dashboardId != null && !dashboardId) return EMPTY_SLICE;
    const where: FilterQuery<Widget> = { tenantId: this.scope.tenantId };
    if (args.dashboardIds) where.dashboardId = { $in: args.dashboardIds };
    if (dashboardId) where.dashboardId = args.dashboardIds ? { $in: args.dashboardIds.filter((id) => id === dashboardId) } : dashboardId;
    if (args.chartType != null) where.chartType = args.chartType;
    if (args.isArchived != null) where.isArchived = args.isArchived;
    return findSlice(this.em, Widget, where, widgetKeys(args), window, { connectionType: connection });
  }

  /** How many widgets the dashboard holds. */
  countOnDashboard(dashboardId: string): Promise<number> {
    return this.em.count(Widget, { dashboardId, tenantId: this.scope.tenantId });
  }

  /** Every widget of these dashboards in one statement, oldest first (the batch behind `Dashboard.widgets`). */
  ofDashboards(dashboardIds: readonly string[]): Promise<Widget[]> {
    return this.em.find(Widget, { dashboardId: { $in: [...dashboardIds] }, tenantId: this.scope.tenantId }, { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  }

  /** The scope's tenant's time zone (the tenant subgraph's published view), UTC if it has no row. */
  async tenantTimeZone(): Promise<string> {
    const row = await this.em.findOne(TenantTimeZone, { tenantId: this.scope.tenantId });
    return row?.timezone ?? 'UTC';
  }

  /** Writes the widget, new or changed (a dashboard deleted meanwhile trips the foreign key). */
  async save(widget: Widget): Promise<void> {
    await this.em.persistAndFlush(widget);
  }

  /** Deletes the widget; false when there was none (or the id cannot exist). */
  async delete(id: string): Promise<boolean> {
    const key = storedId(id);
    return !!key && (await this.em.nativeDelete(Widget, { id: key, tenantId: this.scope.tenantId })) > 0;
  }
}

/** The order of a widget list: the sort field, then the id. */
export function widgetKeys(args: Pick<WidgetQueryArgs, 'sortBy' | 'sortDirection'>): SortKey<Widget>[] {
  const field = SORT_COLUMNS[args.sortBy];
  return byFieldThenId<Widget>(field, field === 'createdAt' || field === 'updatedAt' ? 'date' : 'text', args.sortDirection);
}
