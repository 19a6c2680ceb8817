import { randomUUID } from 'node:crypto';
import type { AuditEntry } from '../../platform/audit/audit-entry';
import { appendEntries } from '../../platform/audit/audit-store';
import type { Actor } from '../../schema/actor';
import type { InProcessApp } from './in-process';

/** What a test says of a record; the rest is filled in. */
export interface FixtureEntry {
  actor: Actor;
  action: string;
  resourceIds?: string[];
  occurredAt: string;
  requestId?: string | null;
  clientAddress?: string | null;
}

/** An item of `auditEvents` / `GET /audit/events`, as JSON answers it. */
export interface AuditItem {
  id: string;
  seq: number;
  occurredAt: string;
  actor: Actor;
  action: string;
  resourceType: string;
  resourceIds: string[];
  outcome: string;
  requestId: string | null;
  clientAddress: string | null;
}

/** Appends records to a tenant's trail as the platform's writers do (the database numbers and chains them); returns their ids in order. */
export async function appendAuditRecords(server: InProcessApp, tenantId: string, entries: FixtureEntry[]): Promise<string[]> {
  const written: AuditEntry[] = entries.map((entry) => ({
    id: randomUUID(),
    tenantId,
    occurredAt: new Date(entry.occurredAt),
    actor: entry.actor,
    action: entry.action,
    resourceType: entry.action.split('.')[0],
    resourceIds: entry.resourceIds ?? [],
    outcome: 'success',
    requestId: entry.requestId ?? null,
    clientAddress: entry.clientAddress ?? null,
  }));
  const em = server.platform.tenantOrm.em.fork();
  await appendEntries((sql, params) => em.getConnection().execute(sql, params), written);
  return written.map((entry) => entry.id);
}

/** The query every graph test of the trail sends, all filters as variables. */
export const AUDIT_EVENTS_QUERY = `query($first: Int, $after: String, $actorId: ID, $actorKind: AuditActorKind, $resourceId: ID, $action: String, $from: DateTime, $to: DateTime, $sortDirection: SortDirection) {
  auditEvents(first: $first, after: $after, actorId: $actorId, actorKind: $actorKind, resourceId: $resourceId, action: $action, from: $from, to: $to, sortDirection: $sortDirection) {
    nodes { id seq occurredAt actor { kind id } action resourceType resourceIds outcome requestId clientAddress } totalCount
  }
}`;
