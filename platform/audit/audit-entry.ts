import { randomUUID } from 'node:crypto';
import type { Actor } from '../../schema/actor';

/** How an audited action ended. */
export type AuditOutcome = 'success' | 'failure';

/** One audit record as written (docs/audit.md); the database numbers and hashes it. */
export interface AuditEntry {
  /** Made when the action happens, so that a record written twice (a retried batch) is kept once. */
  id: string;
  tenantId: string;
  occurredAt: Date;
  actor: Actor;
  /** `<resource>.<verb>`, e.g. `patient.read`, `api_key.issue`. */
  action: string;
  resourceType: string;
  resourceIds: readonly string[];
  outcome: AuditOutcome;
  requestId: string | null;
  clientAddress: string | null;
}

/** What a request knows of itself that every record of it carries. */
export interface AuditOrigin {
  tenantId: string;
  actor: Actor;
  requestId: string | null;
  clientAddress: string | null;
}

/** An entry for an action happening now. */
export function auditEntry(origin: AuditOrigin, action: string, resourceType: string, resourceIds: readonly string[], outcome: AuditOutcome = 'success'): AuditEntry {
  return { id: randomUUID(), occurredAt: new Date(), ...origin, action, resourceType, resourceIds, outcome };
}

/** The columns of a stored record every reader selects, as PostgreSQL names them (`seq` read as text: a bigint). */
export interface StoredAuditColumns {
  id: string;
  seq: string;
  actor_kind: string;
  actor_id: string | null;
  action: string;
  resource_type: string;
  resource_ids: string[];
  outcome: string;
  request_id: string | null;
  client_address: string | null;
}
