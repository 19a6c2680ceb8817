import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditOrigin } from '../../../platform/audit/audit-entry';
import { recordChange } from '../../../platform/audit/request-audit';
import type { TenantScope } from '../../../platform/tenant-scope';
import { Issues } from '../../common/field-rules';
import { SortDirection } from '../../common/pagination';
import { toConnection, type Connection, type ConnectionArgs } from '../../common/connection';
import { keyValues } from '../../common/keyset';
import { listWindow } from '../../common/list-window';
import { auditEventKeys, AuditEventRepository, type AuditEventFilter, type AuditEventRecord, type SeqBounds } from '../repositories/audit-event.repository';

/** Records read per statement of an export: a few hundred KB of text, what the export holds in memory at most (with one page in the socket). */
const EXPORT_PAGE = 500;

/** The longest text filter: ids, actions and addresses are far shorter; anything longer matches nothing and only costs. */
const MAX_FILTER_TEXT = 200;

/** Who asks for an export, for its audit record: the request's actor, id and client address. */
export type AuditExportOrigin = Omit<AuditOrigin, 'tenantId'>;

/** Checks a filter of the audit trail: text filters of a sane length, `to` not before `from`; throws every problem at once (422). */
export function validateAuditFilter(filter: AuditEventFilter): void {
  const issues = new Issues();
  for (const name of ['actorId', 'resourceId', 'action'] as const) {
    const value = filter[name];
    if (value != null && value.length > MAX_FILTER_TEXT) {
      issues.add({ type: 'string_too_long', loc: [name], msg: `String should have at most ${MAX_FILTER_TEXT} characters`, input: value, ctx: { max_length: MAX_FILTER_TEXT } });
    }
  }
  if (filter.from != null && filter.to != null && filter.to < filter.from) issues.value(['to'], '`to` must not be before `from`', filter.to.toISOString());
  issues.throwIfAny();
}

/**
 * The tenant's audit trail as its admin reads it (issue 33): pages of it through the graph and
 * REST, and its export, streamed. Reading is not itself recorded; an export is (`audit.export`).
 */
export class AuditEventService {
  private readonly records: AuditEventRepository;

  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {
    this.records = new AuditEventRepository(em, scope);
  }

  /** One window of the tenant's records matching the filter, by sequence number; a bad window or filter is a 422. */
  async page(args: AuditEventFilter & ConnectionArgs & { sortDirection: SortDirection }): Promise<Connection<AuditEventRecord>> {
    const keys = auditEventKeys(args.sortDirection);
    const window = listWindow(args, keys);
    validateAuditFilter(args);
    return toConnection(await this.records.page(args, keys, window), keyValues(keys), (row) => row);
  }

  /**
   * Starts an export: checks the filter (422), writes the export's own `audit.export` record and
   * bounds the export at it, so that the export is every matching record up to and including its
   * own record, whatever is appended while it is read. Returns the records in pages, read one
   * statement at a time by sequence number (a keyset walk: no offset, no transaction held open, no
   * more than a page in memory); nothing is read until the first page is asked for.
   */
  async startExport(filter: AuditEventFilter, direction: SortDirection, by: AuditExportOrigin): Promise<AsyncGenerator<AuditEventRecord[]>> {
    validateAuditFilter(filter);
    const head = await this.em.transactional(async (tx) => {
      await recordChange(tx, { tenantId: this.scope.tenantId, ...by }, 'audit.export', 'audit_event', []);
      // In the record's transaction, which holds the tenant's chain lock: the head is the export's own record.
      return new AuditEventRepository(tx, this.scope).head();
    });
    return this.walk(filter, direction, { after: 0, before: head + 1 });
  }

  private async *walk(filter: AuditEventFilter, direction: SortDirection, bounds: SeqBounds): AsyncGenerator<AuditEventRecord[]> {
    for (;;) {
      const page = await this.records.between(filter, bounds, direction, EXPORT_PAGE);
      if (page.length > 0) yield page;
      if (page.length < EXPORT_PAGE) return;
      const last = page[page.length - 1].seq;
      bounds = direction === SortDirection.ASC ? { after: last, before: bounds.before } : { after: bounds.after, before: last };
    }
  }
}
