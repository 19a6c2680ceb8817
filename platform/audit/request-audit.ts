import type { EntityManager } from '@mikro-orm/postgresql';
import { auditEntry, type AuditOrigin, type AuditOutcome } from './audit-entry';
import { appendEntries } from './audit-store';
import type { AuditReadLog } from './read-log';

/**
 * A request's side of the audit trail (docs/audit.md), on its resolver context: reads of PHI
 * queued without holding the answer, changes written inside the change's own transaction, so that
 * a change and its record commit together or not at all. A request of no tenant (an internal
 * call) records nothing: there is no tenant's trail to extend.
 */
export class RequestAudit {
  constructor(private readonly origin: AuditOrigin | null, private readonly reads: AuditReadLog | null) {}

  /** Records that PHI of these resources was read (`<type>.read`); nothing when none was. Throws a 503 when reads cannot be recorded. */
  read(resourceType: string, ids: readonly string[]): void {
    if (!this.origin || !this.reads || ids.length === 0) return;
    this.reads.add(auditEntry(this.origin, `${resourceType}.read`, resourceType, [...new Set(ids)]));
  }

  /** Writes a change's record in `em`'s transaction (call it inside `em.transactional`, after the change). */
  async change(em: EntityManager, action: string, resourceType: string, ids: readonly string[], outcome: AuditOutcome = 'success'): Promise<void> {
    if (this.origin) await recordChange(em, this.origin, action, resourceType, ids, outcome);
  }
}

/** Writes one change's record in `em`'s transaction, for an origin outside any request's context (the operator's actions). */
export async function recordChange(em: EntityManager, origin: AuditOrigin, action: string, resourceType: string, ids: readonly string[], outcome: AuditOutcome = 'success'): Promise<void> {
  await appendEntries((sql, params) => em.getConnection().execute(sql, params, 'run', em.getTransactionContext()), [auditEntry(origin, action, resourceType, ids, outcome)]);
}
