import type { AuditEntry } from './audit-entry';

/** Runs one SQL statement with positional parameters (`?`), e.g. on an entity manager's connection inside its transaction. */
export type Execute = (sql: string, params: unknown[]) => Promise<unknown>;

/** The columns written; seq, prev_hash and hash are the chain trigger's. */
const COLUMNS = '"id", "tenant_id", "occurred_at", "actor_kind", "actor_id", "action", "resource_type", "resource_ids", "outcome", "request_id", "client_address"';

/**
 * Appends entries in one statement. A record already there (the same id: a batch retried after a
 * lost answer) is skipped, which makes reads' at-least-once delivery write each record once.
 */
export async function appendEntries(execute: Execute, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const params: unknown[] = [];
  const rows = entries.map((entry) => {
    params.push(entry.id, entry.tenantId, entry.occurredAt, entry.actor.kind, entry.actor.id, entry.action, entry.resourceType, textArray(entry.resourceIds), entry.outcome, entry.requestId, entry.clientAddress);
    return '(?, ?, ?, ?, ?, ?, ?, ?::text[], ?, ?, ?)';
  });
  await execute(`insert into "audit"."events" (${COLUMNS}) values ${rows.join(', ')} on conflict ("id") do nothing`, params);
}

/** A PostgreSQL array literal of texts: the query builder would spread a JavaScript array into a list of parameters. */
function textArray(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
}
