import type { EntityManager } from '@mikro-orm/postgresql';
import type { StoredAuditColumns } from '../../../platform/audit/audit-entry';
import { verifyChain, type ChainVerdict } from '../../../platform/audit/audit-chain';
import type { Actor, ActorKind } from '../../../schema/actor';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { SortDirection } from '../../common/pagination';
import type { ListSlice } from '../../common/connection';
import { readSlice, sqlCondition, sqlOrder } from '../../common/keyset';
import type { ListWindow, SortKey } from '../../common/list-window';

/** What a list or an export of the audit trail is narrowed to; each filter given narrows it further. */
export interface AuditEventFilter {
  actorId?: string | null;
  actorKind?: ActorKind | null;
  /** Records naming this id among their resource ids (the GIN index on `resource_ids`). */
  resourceId?: string | null;
  /** The action, exactly. */
  action?: string | null;
  /** Inclusive. */
  from?: Date | null;
  /** Inclusive. */
  to?: Date | null;
}

/** One audit record as reads return it (no chain hashes: those are the verifier's). */
export interface AuditEventRecord {
  id: string;
  seq: number;
  occurredAt: Date;
  actor: Actor;
  action: string;
  resourceType: string;
  resourceIds: string[];
  outcome: string;
  requestId: string | null;
  clientAddress: string | null;
}

/** The sequence numbers a keyset read stays strictly between. */
export interface SeqBounds {
  after: number;
  before: number;
}

interface Row extends StoredAuditColumns {
  occurred_at: string | Date;
  actor_kind: ActorKind;
}

const COLUMNS = 'id::text as id, seq::text as seq, occurred_at, actor_kind, actor_id, action, resource_type, resource_ids, outcome, request_id, client_address';
// The table's column, not COLUMNS' text `seq`, which a bare name in ORDER BY would mean (text order: 10 before 9).
const ORDER = { asc: '"events"."seq" asc', desc: '"events"."seq" desc' } as const;

/** The where clause of a tenant's records matching `filter`, with its parameters in order. */
function matching(tenantId: string, filter: AuditEventFilter): { where: string; params: unknown[] } {
  const where = ['tenant_id = ?'];
  const params: unknown[] = [tenantId];
  if (filter.actorId != null) (where.push('actor_id = ?'), params.push(filter.actorId));
  if (filter.actorKind != null) (where.push('actor_kind = ?'), params.push(filter.actorKind));
  // `@>` is what the GIN index on resource_ids answers; `? = any(...)` would read every record of the tenant.
  if (filter.resourceId != null) (where.push('resource_ids @> array[?]::text[]'), params.push(filter.resourceId));
  if (filter.action != null) (where.push('action = ?'), params.push(filter.action));
  if (filter.from != null) (where.push('occurred_at >= ?'), params.push(filter.from));
  if (filter.to != null) (where.push('occurred_at <= ?'), params.push(filter.to));
  return { where: where.join(' and '), params };
}

/** MikroORM's driver returns bigint and timestamptz as text; records carry numbers and Dates. */
const record = (row: Row): AuditEventRecord => ({
  id: row.id,
  seq: Number(row.seq),
  occurredAt: new Date(row.occurred_at),
  actor: { kind: row.actor_kind, id: row.actor_id },
  action: row.action,
  resourceType: row.resource_type,
  resourceIds: row.resource_ids,
  outcome: row.outcome,
  requestId: row.request_id,
  clientAddress: row.client_address,
});

/**
 * Reads of the audit trail (`audit.events`, platform/audit): SQL on the entity manager's
 * connection, as the table has no entity (its writers append SQL too). Every statement binds the
 * scope's tenant id: the table holds every tenant's records. Nothing here writes.
 */
export class AuditEventRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** A window of the tenant's records matching `filter`, by sequence number (`auditEventKeys`), and the total. */
  page(filter: AuditEventFilter, keys: SortKey<AuditEventRecord>[], window: ListWindow): Promise<ListSlice<AuditEventRecord>> {
    const { where, params } = matching(this.scope.tenantId, filter);
    const connection = this.em.getConnection();
    // Two statements, not `count(*) over ()`: the window then reads its few rows down the (tenant_id, seq) index.
    return readSlice(
      window,
      keys,
      async (slice) => {
        const sliceParams = [...params];
        const keyset = slice.conditions.map((term) => ` and ${sqlCondition(term, sliceParams)}`).join('');
        const rows = await connection.execute<Row[]>(`select ${COLUMNS} from "audit"."events" where ${where}${keyset} order by ${sqlOrder(keys as SortKey<never>[], slice.reverse)} limit ? offset ?`, [...sliceParams, slice.limit, slice.offset]);
        return rows.map(record);
      },
      async () => Number((await connection.execute<{ n: string }[]>(`select count(*) as n from "audit"."events" where ${where}`, params))[0].n),
    );
  }

  /** Up to `limit` of the tenant's records matching `filter` strictly between `bounds`, by sequence number: one step of a keyset walk. */
  async between(filter: AuditEventFilter, bounds: SeqBounds, direction: SortDirection, limit: number): Promise<AuditEventRecord[]> {
    const { where, params } = matching(this.scope.tenantId, filter);
    const rows = await this.em
      .getConnection()
      .execute<Row[]>(`select ${COLUMNS} from "audit"."events" where ${where} and seq > ? and seq < ? order by ${ORDER[direction]} limit ?`, [...params, bounds.after, bounds.before, limit]);
    return rows.map(record);
  }

  /** Walks the tenant's whole chain and reports every break (platform/audit/audit-chain.ts), a page per statement. */
  verifyChain(): Promise<ChainVerdict> {
    return verifyChain((sql, params) => this.em.getConnection().execute(sql, params), this.scope.tenantId);
  }

  /** The sequence number of the tenant's newest record, 0 when it has none; in the entity manager's transaction, if any. */
  async head(): Promise<number> {
    const row = await this.em
      .getConnection()
      .execute<{ seq: string | null }>('select max(seq)::text as seq from "audit"."events" where tenant_id = ?', [this.scope.tenantId], 'get', this.em.getTransactionContext());
    return Number(row?.seq ?? 0);
  }
}

/** The order of the audit trail: its sequence number alone (unique within a tenant, so no id is needed to break ties). */
export function auditEventKeys(direction: SortDirection): SortKey<AuditEventRecord>[] {
  // The table's column, not COLUMNS' text `seq`, which a bare name would mean (text order: 10 before 9).
  return [{ field: '"events"."seq"', direction: direction === 'asc' ? 'asc' : 'desc', kind: 'integer', value: (row) => row.seq }];
}
