import { randomUUID } from 'node:crypto';
import { execute, parse, type ExecutionResult } from 'graphql';
import type { Client } from 'pg';
import { RequestAudit } from '../../platform/audit/request-audit';
import type { RequestIdentity } from '../../platform/context';
import type { RunningSubgraph } from '../../platform/subgraph-runtime';

/** One audit record as stored (docs/audit.md). */
export interface AuditRow {
  seq: string;
  action: string;
  resource_type: string;
  resource_ids: string[];
  actor_kind: string;
  actor_id: string | null;
  outcome: string;
  request_id: string | null;
  client_address: string | null;
}

/** The API key every audited test operation acts as, and the address it comes from. */
export const AUDIT_KEY_ID = '9f1c4a2e-0000-4000-8000-00000000a0d1';
export const AUDIT_CLIENT_ADDRESS = '203.0.113.7';

/**
 * The tenant's audit records in order, after the subgraphs' queued read records are written
 * (reads are recorded on the side: platform/audit/read-log.ts).
 */
export async function auditRecords(db: Client, tenantId: string, ...subgraphs: RunningSubgraph[]): Promise<AuditRow[]> {
  for (const subgraph of subgraphs) await subgraph.auditReads.flush();
  const { rows } = await db.query(
    // Ordered by the number, not its text (`seq` in the select list is text: '10' < '2').
    'select e.seq::text as seq, action, resource_type, resource_ids, actor_kind, actor_id, outcome, request_id, client_address from audit.events e where tenant_id = $1 order by e.seq',
    [tenantId],
  );
  return rows;
}

/** An operation's result and the request id its records carry. */
export interface AuditedRun extends ExecutionResult<any> {
  requestId: string;
}

/** Runs an operation on a subgraph as the gateway would for a tenant's key: a fresh request id, the key as actor, the client's address. */
export async function runAudited(subgraph: RunningSubgraph, tenantId: string | null, query: string, variables?: Record<string, unknown>, identity: Partial<RequestIdentity> = {}): Promise<AuditedRun> {
  const requestId = randomUUID();
  const contextValue = subgraph.context({ tenantId, requestId, actor: { kind: 'key', id: AUDIT_KEY_ID }, clientAddress: AUDIT_CLIENT_ADDRESS, ...identity });
  const result = (await execute({ schema: subgraph.schema, document: parse(query), variableValues: variables, contextValue })) as ExecutionResult<any>;
  return { ...result, requestId };
}

/** A request's audit whose change records the database refuses (no actor kind): the write it goes with must roll back with it. */
export const refusedAudit = (tenantId: string): RequestAudit => new RequestAudit({ tenantId, actor: { kind: null as never, id: null }, requestId: 'refused', clientAddress: null }, null);

/** What a change's record of a key's request holds. */
export const changeBy = (run: AuditedRun, action: string, resourceType: string, ids: string[]) => ({
  action,
  resource_type: resourceType,
  resource_ids: ids,
  actor_kind: 'key',
  actor_id: AUDIT_KEY_ID,
  outcome: 'success',
  request_id: run.requestId,
  client_address: AUDIT_CLIENT_ADDRESS,
});
