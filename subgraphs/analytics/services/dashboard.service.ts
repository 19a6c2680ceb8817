import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import { NotFoundError } from '../../../schema/errors';
import { toConnection, type Connection, type ConnectionArgs } from '../../common/connection';
import { keyValues } from '../../common/keyset';
import { listWindow } from '../../common/list-window';
import type { Dashboard } from '../entities/dashboard.entity';
import type { CreateDashboardInput, UpdateDashboardInput } from '../inputs/dashboard.input';
import { dashboardKeys, DashboardRepository, type DashboardQuery } from '../repositories/dashboard.repository';
import { checkName, checkOptionalText, checkStoredJson, isJsonObject, Issues, MAX_REFERENCE_LENGTH, MAX_TEXT_LENGTH, type Loc } from './input-rules';
import { recordEvent } from '../../common/jobs/record-event';
import { staleRead } from '../../../platform/replica/stale-read';

/** A layout is whatever grid the front end keeps, but always a JSON object or array. */
function checkLayout(issues: Issues, loc: Loc, value: unknown): unknown {
  if (isJsonObject(value) || Array.isArray(value)) return checkStoredJson(issues, loc, value) ? value : undefined;
  issues.value(loc, 'layout must be a JSON object or array', value);
  return undefined;
}

/** Dashboards of one tenant: reads, and writes with their rules (contract part 4.2), each write with its audit record. */
export class DashboardService {
  private readonly dashboards: DashboardRepository;

  /** `audit`: the request's side of the audit trail (ctx.audit), which every write records to in its own transaction. */
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope, private readonly audit: RequestAudit) {
    this.dashboards = new DashboardRepository(em, scope);
  }

  /** The dashboard, or 404 for an unknown id of any shape and for another tenant's. */
  async get(id: string): Promise<Dashboard> {
    const dashboard = await this.dashboards.findById(id);
    if (!dashboard) throw new NotFoundError('Dashboard not found');
    return dashboard;
  }

  /** One window of the tenant's dashboards, from the replica when it is within its lag bound (a list may be seconds stale; a lookup by id may not). */
  async list(query: DashboardQuery & ConnectionArgs): Promise<Connection<Dashboard>> {
    const keys = dashboardKeys(query);
    const window = listWindow(query, keys);
    const slice = await staleRead(this.em, (connection) => this.dashboards.list(query, window, connection));
    return toConnection(slice, keyValues(keys), (row) => row);
  }

  /** Creates a dashboard; every input problem is reported at once. */
  async create(input: CreateDashboardInput): Promise<Dashboard> {
    const issues = new Issues();
    const name = checkName(issues, ['input', 'name'], input.name);
    const description = checkOptionalText(issues, ['input', 'description'], input.description, MAX_TEXT_LENGTH);
    const locationId = checkOptionalText(issues, ['input', 'locationId'], input.locationId, MAX_REFERENCE_LENGTH);
    const layout = input.layout === undefined ? {} : checkLayout(issues, ['input', 'layout'], input.layout);
    issues.throwIfAny();
    // The event and the audit record go out in the same transaction as the dashboard (issue 7, docs/audit.md).
    return this.em.transactional(async (tx) => {
      const dashboards = new DashboardRepository(tx, this.scope);
      const dashboard = dashboards.add({ name: name!, description: description ?? null, locationId: locationId ?? null, layout });
      await dashboards.save();
      await recordEvent(tx, this.scope, 'dashboard.created', { id: dashboard.id, name: dashboard.name, locationId: dashboard.locationId });
      await this.audit.change(tx, 'dashboard.create', 'dashboard', [dashboard.id]);
      return dashboard;
    });
  }

  /** Changes only the fields sent; 422 before 404, as FastAPI validates the body before the handler runs. */
  async update(id: string, input: UpdateDashboardInput): Promise<Dashboard> {
    const issues = new Issues();
    const changes: Partial<Dashboard> = {};
    if (input.name !== undefined) changes.name = checkName(issues, ['input', 'name'], input.name);
    if (input.description !== undefined) changes.description = checkOptionalText(issues, ['input', 'description'], input.description, MAX_TEXT_LENGTH);
    if (input.locationId !== undefined) changes.locationId = checkOptionalText(issues, ['input', 'locationId'], input.locationId, MAX_REFERENCE_LENGTH);
    if (input.layout !== undefined) changes.layout = checkLayout(issues, ['input', 'layout'], input.layout);
    issues.throwIfAny();
    const dashboard = await this.get(id);
    // Plain assignment: the ORM's assign() may merge JSON objects, and a layout sent replaces the old one.
    Object.assign(dashboard, changes);
    // The transaction's entity manager sees the dashboard loaded above (a fork keeps the identity map) and writes the change.
    await this.em.transactional(async (tx) => {
      await new DashboardRepository(tx, this.scope).save();
      await this.audit.change(tx, 'dashboard.update', 'dashboard', [dashboard.id]);
    });
    return dashboard;
  }

  /** Deletes the dashboard and, by the foreign key, its widgets, in one statement. */
  async delete(id: string): Promise<void> {
    const deleted = await this.em.transactional(async (tx) => {
      if (!(await new DashboardRepository(tx, this.scope).delete(id))) return false;
      await recordEvent(tx, this.scope, 'dashboard.deleted', { id });
      // Widgets go with it by the foreign key; the record names the dashboard, the one thing deleted by name.
      await this.audit.change(tx, 'dashboard.delete', 'dashboard', [id.toLowerCase()]);
      return true;
    });
    if (!deleted) throw new NotFoundError('Dashboard not found');
  }
}
