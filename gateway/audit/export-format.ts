import type { AuditEventRecord } from '../../subgraphs/tenant';

/** How an export of the audit trail is written: the text of its records, no I/O. */
export interface ExportFormat {
  /** The answer's Content-Type. */
  contentType: string;
  /** The file name's extension in Content-Disposition. */
  extension: string;
  /** Text before the first record (CSV's header line). */
  head: string;
  /** One page of records as text. */
  page(records: readonly AuditEventRecord[]): string;
}

/** One JSON object per line, as `GET /audit/events` shows an item (ndjson spec: LF after each, none inside). */
const NDJSON: ExportFormat = {
  contentType: 'application/x-ndjson; charset=utf-8',
  extension: 'ndjson',
  head: '',
  page: (records) => records.map((record) => `${JSON.stringify(record)}\n`).join(''),
};

const CSV_COLUMNS = ['id', 'seq', 'occurredAt', 'actorKind', 'actorId', 'action', 'resourceType', 'resourceIds', 'outcome', 'requestId', 'clientAddress'];

/**
 * One field quoted as RFC 4180 (2.6, 2.7) says: a field holding a comma, a double quote, CR or LF
 * is enclosed in double quotes, its double quotes doubled; any other is written as it is. No
 * library does it here (none is installed), and these few lines are all it takes. Values are not
 * altered against spreadsheet formulas (a leading `=`): an audit export must be the records exactly.
 */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** One CSV record, CRLF-terminated (RFC 4180 2.1); null is an empty field. */
const csvLine = (fields: readonly (string | number | null)[]): string => `${fields.map((field) => csvField(field === null ? '' : String(field))).join(',')}\r\n`;

/** A header line, then a line per record; resource ids space-separated in one field (ids hold no spaces). */
const CSV: ExportFormat = {
  contentType: 'text/csv; charset=utf-8; header=present',
  extension: 'csv',
  head: csvLine(CSV_COLUMNS),
  page: (records) =>
    records
      .map((r) => csvLine([r.id, r.seq, r.occurredAt.toISOString(), r.actor.kind, r.actor.id, r.action, r.resourceType, r.resourceIds.join(' '), r.outcome, r.requestId, r.clientAddress]))
      .join(''),
};

/** The export formats by their `format` parameter; the first is the default. */
export const EXPORT_FORMATS: Readonly<Record<'ndjson' | 'csv', ExportFormat>> = { ndjson: NDJSON, csv: CSV };
