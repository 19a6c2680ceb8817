import { migration, type OrmDefinition } from '../../platform/orm';
import { Migration20261122010000_idempotency } from './migrations/Migration20261122010000_idempotency';
import { Migration20261122020000_idempotency_owner } from './migrations/Migration20261122020000_idempotency_owner';

/** The gateway's own PostgreSQL schema: edge state that belongs to no subgraph (idempotency records). */
export const GATEWAY_SCHEMA: OrmDefinition = {
  schema: 'gateway',
  entities: [],
  migrations: [
    migration('Migration20261122010000_idempotency', Migration20261122010000_idempotency),
    migration('Migration20261122020000_idempotency_owner', Migration20261122020000_idempotency_owner),
  ],
};
