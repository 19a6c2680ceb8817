import { migration, type OrmDefinition } from '../orm';
import { Migration20261227010000_audit_events } from './migrations/Migration20261227010000_audit_events';
import { Migration20261227020000_audit_retention } from './migrations/Migration20261227020000_audit_retention';

/** The audit trail's PostgreSQL schema (docs/audit.md): shared by every subgraph, written in SQL (no entities). */
export const AUDIT_SCHEMA: OrmDefinition = {
  schema: 'audit',
  entities: [],
  migrations: [
    migration('Migration20261227010000_audit_events', Migration20261227010000_audit_events),
    migration('Migration20261227020000_audit_retention', Migration20261227020000_audit_retention),
  ],
};
