import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import { ConflictError, NotFoundError } from '../../../schema/errors';
import { EMPTY_SLICE, toConnection, type Connection, type ConnectionArgs } from '../../common/connection';
import { keyValues } from '../../common/keyset';
import { listWindow } from '../../common/list-window';
import type { Widget } from '../entities/widget.entity';
import type { CreateWidgetInput, UpdateWidgetInput, WidgetPositionInput } from '../inputs/widget.input';
import { validateWidgetQuery, type WidgetQuery } from '../query/validate-widget-query';
import { DashboardRepository } from '../repositories/dashboard.repository';
import { MAX_WIDGETS_PER_DASHBOARD, widgetKeys, WidgetRepository, type WidgetQueryArgs } from '../repositories/widget.repository';
import { ChartType } from '../types/enums';
import { WIDGET_POSITION_RULES } from '../../../schema/input-field-rules';
import { checkIntRange } from '../../common/field-rules';
import { canonicalTimeZone } from '../../common/time-zone';
import { checkName, checkStoredJson, Issues, typeIssue, type Loc } from './input-rules';
import { staleRead } from '../../../platform/replica/stale-read';

/** Where a widget lands when the request does not place it. */
const DEFAULT_POSITION = { x: 0, y: 0, w: 6, h: 4 };
const CHART_TYPES = Object.values(ChartType).map((t) => `'${t}'`);
const EXPECTED_CHART_TYPES = `${CHART_TYPES.slice(0, -1).join(', ')} or ${CHART_TYPES[CHART_TYPES.length - 1]}`;

function checkPosition(issues: Issues, loc: Loc, position: WidgetPositionInput): WidgetPositionInput {
  // The same minimums the OpenAPI document states (schema/input-field-rules.ts).
  for (const key of ['x', 'y', 'w', 'h'] as const) checkIntRange(issues, [...loc, key], position[key], WIDGET_POSITION_RULES[key].minimum, Number.MAX_SAFE_INTEGER);
  return { x: position.x, y: position.y, w: position.w, h: position.h };
}

/**
 * The query to store with its time zone (issue 34: one widget, one number wherever it runs): an
 * explicit zone in its canonical spelling (already validated), else `fallback`.
 */
function withTimeZone(query: WidgetQuery, fallback: string): Record<string, unknown> {
  const zone = typeof query.timezone === 'string' ? canonicalTimeZone(query.timezone) : null;
  return { ...query, timezone: zone ?? fallback };
}

function checkQuery(issues: Issues, loc: Loc, query: unknown): WidgetQuery | undefined {
  // Size first: the validator need not walk a megabyte to refuse it.
  if (!checkStoredJson(issues, loc, query)) return undefined;
  const checked = validateWidgetQuery(query, loc);
  if (checked.ok) return checked.query;
  checked.issues.forEach((issue) => issues.add(issue));
  return undefined;
}

/** Widgets of one tenant: reads, and writes with their rules (contract part 4.2), each write with its audit record. */
export class WidgetService {
  private readonly widgets: WidgetRepository;
  private readonly dashboards: DashboardRepository;

  /** `audit`: the request's side of the audit trail (ctx.audit), which every write records to in its own transaction. */
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope, private readonly audit: RequestAudit) {
    this.widgets = new WidgetRepository(em, scope);
    this.dashboards = new DashboardRepository(em, scope);
  }

  /** The widget, or 404 for an unknown id of any shape and for another tenant's. */
  async get(id: string): Promise<Widget> {
    const widget = await this.widgets.findById(id);
    if (!widget) throw new NotFoundError('Widget not found');
    return widget;
  }

  /**
   * One window of the tenant's widgets; a location narrows to its dashboards first. From the
   * replica when it is within its lag bound, both statements on the same connection.
   */
  async list(args: Omit<WidgetQueryArgs, 'dashboardIds'> & ConnectionArgs & { locationId?: string | null }): Promise<Connection<Widget>> {
    const keys = widgetKeys(args);
    const window = listWindow(args, keys);
    const slice = await staleRead(this.em, async (connection) => {
      const dashboardIds = args.locationId != null ? await this.dashboards.idsOfLocation(args.locationId, connection) : undefined;
      return dashboardIds?.length === 0 ? EMPTY_SLICE : this.widgets.list({ ...args, dashboardIds }, window, connection);
    });
    return toConnection(slice, keyValues(keys), (row: Widget) => row);
  }

  /** Creates a widget on one of the tenant's dashboards; unknown dashboard -> 404. */
  async create(input: CreateWidgetInput): Promise<Widget> {
    const issues = new Issues();
    const name = checkName(issues, ['input', 'name'], input.name);
    const query = checkQuery(issues, ['input', 'query'], input.query);
    const position = input.position == null ? DEFAULT_POSITION : checkPosition(issues, ['input', 'position'], input.position);
    issues.throwIfAny();
    await this.requireDashboard(input.dashboardId);
    // `Dashboard.widgets` is a bounded list: a widget past the bound would never be listed there.
    if ((await this.widgets.countOnDashboard(input.dashboardId)) >= MAX_WIDGETS_PER_DASHBOARD) throw new ConflictError(`A dashboard holds at most ${MAX_WIDGETS_PER_DASHBOARD} widgets`);
    const stored = withTimeZone(query!, await this.widgets.tenantTimeZone());
    const fields = { dashboardId: input.dashboardId, name: name!, chartType: input.chartType, query: stored, position, isArchived: input.isArchived };
    return this.write('widget.create', (widgets) => widgets.add(fields));
  }

  /** Changes only the fields sent; a new `dashboardId` moves the widget (unknown dashboard -> 404). */
  async update(id: string, input: UpdateWidgetInput): Promise<Widget> {
    const issues = new Issues();
    const changes: Partial<Widget> = {};
    // In the input's field order, as Pydantic reports a model's errors.
    if (input.dashboardId === null) issues.add(typeIssue(['input', 'dashboardId'], 'string_type', null));
    else if (input.dashboardId !== undefined) changes.dashboardId = input.dashboardId;
    if (input.name !== undefined) changes.name = checkName(issues, ['input', 'name'], input.name);
    if (input.chartType === null) issues.add({ type: 'enum', loc: ['input', 'chartType'], msg: `Input should be ${EXPECTED_CHART_TYPES}`, input: null, ctx: { expected: EXPECTED_CHART_TYPES } });
    else if (input.chartType !== undefined) changes.chartType = input.chartType;
    const query = input.query === undefined ? undefined : checkQuery(issues, ['input', 'query'], input.query);
    const position = input.position === null ? void issues.add(typeIssue(['input', 'position'], 'dict_type', null)) : input.position && checkPosition(issues, ['input', 'position'], input.position);
    if (input.isArchived === null) issues.add(typeIssue(['input', 'isArchived'], 'bool_type', null));
    else if (input.isArchived !== undefined) changes.isArchived = input.isArchived;
    issues.throwIfAny();
    const widget = await this.get(id);
    if (changes.dashboardId !== undefined && changes.dashboardId !== widget.dashboardId) await this.requireDashboard(changes.dashboardId);
    // A query sent without a zone keeps the widget's: an edit must not move its figures to another calendar.
    if (query) changes.query = withTimeZone(query, typeof widget.query.timezone === 'string' ? widget.query.timezone : await this.widgets.tenantTimeZone());
    // Plain assignment: the ORM's assign() may merge JSON objects, and a query sent replaces the old one.
    Object.assign(widget, changes);
    if (position) Object.assign(widget.position, position);
    return this.write('widget.update', () => widget);
  }

  /** Deletes the widget in one statement, with its audit record in the same transaction. */
  async delete(id: string): Promise<void> {
    const deleted = await this.em.transactional(async (tx) => {
      if (!(await new WidgetRepository(tx, this.scope).delete(id))) return false;
      await this.audit.change(tx, 'widget.delete', 'widget', [id.toLowerCase()]);
      return true;
    });
    if (!deleted) throw new NotFoundError('Widget not found');
  }

  private async requireDashboard(dashboardId: string): Promise<void> {
    if (!(await this.dashboards.exists(dashboardId))) throw new NotFoundError('Dashboard not found');
  }

  /**
   * Writes the widget `change` made (new, or loaded and changed: a transaction's entity manager
   * sees what this service loaded) and its audit record in one transaction. A dashboard deleted
   * between the check and the write trips the foreign key: the same 404, not a 500.
   */
  private async write(action: string, change: (widgets: WidgetRepository) => Widget): Promise<Widget> {
    try {
      return await this.em.transactional(async (tx) => {
        const widgets = new WidgetRepository(tx, this.scope);
        const widget = change(widgets);
        await widgets.save(widget);
        await this.audit.change(tx, action, 'widget', [widget.id]);
        return widget;
      });
    } catch (error) {
      if (error instanceof ForeignKeyConstraintViolationException) throw new NotFoundError('Dashboard not found');
      throw error;
    }
  }
}
