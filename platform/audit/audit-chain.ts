import { createHash } from 'node:crypto';
import type { StoredAuditColumns } from './audit-entry';
import type { Execute } from './audit-store';

/** What verifying a tenant's chain found. */
export interface ChainVerdict {
  tenantId: string;
  /** Records checked. */
  records: number;
  /** The last record's hash (hex): kept elsewhere, it also exposes a chain rewritten from some record on, or cut at its end. */
  head: string | null;
  /** Each break found, in order (at most 100): the record's sequence number and what is wrong. */
  problems: { seq: string; problem: string }[];
}

/** A record as the verifier reads it: its time as the hash covers it, and the chain's two hashes. */
interface ChainRow extends StoredAuditColumns {
  tenant_id: string;
  occurred: string;
  prev_hash: Buffer;
  hash: Buffer;
}

const PAGE = 1_000;
const MAX_PROBLEMS = 100;
const GENESIS = Buffer.alloc(32);

/**
 * The text a record's hash covers, as the migration's `audit.canonical` makes it: computed here
 * again, not asked of the database, so that an altered function cannot vouch for altered records.
 */
export function canonicalText(row: Omit<ChainRow, 'prev_hash' | 'hash'>): string {
  return [row.id, row.tenant_id, row.seq, row.occurred, row.actor_kind, row.actor_id ?? '', row.action, row.resource_type, row.resource_ids.join('\x1e'), row.outcome, row.request_id ?? '', row.client_address ?? ''].join('\x1f');
}

/**
 * Walks a tenant's records in order, a page at a time, and checks that they are numbered without
 * a gap from 1 (or from the anchor a retention purge left), that each names its predecessor's hash, and that each hash is the hash of its own
 * fields: an altered record fails its own hash, a removed one the numbering and the link.
 */
export async function verifyChain(execute: Execute, tenantId: string): Promise<ChainVerdict> {
  const problems: ChainVerdict['problems'] = [];
  // After a retention purge the chain starts from its anchor: the last removed record's number and hash.
  const [anchor] = (await execute('select through_seq::text, hash from "audit"."anchors" where tenant_id = ? order by through_seq desc limit 1', [tenantId])) as { through_seq: string; hash: Buffer }[];
  let previous = anchor ? Buffer.from(anchor.hash) : GENESIS;
  let expectedSeq = anchor ? BigInt(anchor.through_seq) + 1n : 1n;
  let records = 0;
  let after = anchor?.through_seq ?? '0';
  for (;;) {
    const rows = (await execute(
      `select id::text, tenant_id::text, seq::text, to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as occurred,
        actor_kind, actor_id, action, resource_type, resource_ids, outcome, request_id, client_address, prev_hash, hash
       from "audit"."events" where tenant_id = ? and seq > ? order by seq limit ${PAGE}`,
      [tenantId, after],
    )) as ChainRow[];
    for (const row of rows) {
      records++;
      const report = (problem: string) => problems.length < MAX_PROBLEMS && problems.push({ seq: row.seq, problem });
      if (BigInt(row.seq) !== expectedSeq) report(`expected record ${expectedSeq}: ${BigInt(row.seq) - expectedSeq} missing before it`);
      if (!Buffer.from(row.prev_hash).equals(previous)) report("does not name its predecessor's hash");
      const own = createHash('sha256').update(Buffer.from(row.prev_hash)).update(canonicalText(row), 'utf8').digest();
      if (!own.equals(Buffer.from(row.hash))) report('its fields do not match its hash: altered');
      previous = Buffer.from(row.hash);
      expectedSeq = BigInt(row.seq) + 1n;
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1].seq;
  }
  return { tenantId, records, head: records || anchor ? previous.toString('hex') : null, problems };
}
