import { CUBES } from './model';
import type { NormalizedQuery } from './query-types';
import type { RunStatement } from './read-only';

/** The member whose values are patient ids. */
export const PATIENT_ID_MEMBER = 'revenue.patientId';
/** The member whose values are patient names. */
export const PATIENT_NAME_MEMBER = 'revenue.patient';

const distinct = (values: unknown[]): string[] => [...new Set(values.filter((value): value is string => typeof value === 'string' && value !== ''))];

/**
 * The patients an analytics answer names, for its audit record (docs/audit.md): rows grouped by
 * patient are a read of PHI, aggregates that name nobody are not. Grouped by patient id, the ids
 * in the rows; grouped by name only, the ids of the tenant's lines bearing those names, looked up
 * in the same read-only transaction (a name two patients share names both: the record errs on the
 * side of naming more). Empty when the answer names no patient.
 */
export async function patientsNamed(run: RunStatement, query: NormalizedQuery, tenantId: string, rows: Record<string, unknown>[]): Promise<string[]> {
  if (query.dimensions.includes(PATIENT_ID_MEMBER)) return distinct(rows.map((row) => row[PATIENT_ID_MEMBER]));
  if (!query.dimensions.includes(PATIENT_NAME_MEMBER)) return [];
  const names = distinct(rows.map((row) => row[PATIENT_NAME_MEMBER]));
  if (names.length === 0) return [];
  const cube = CUBES.revenue;
  const { patientId, patient } = cube.dimensions;
  const found = await run({
    sql: `select distinct ${patientId.column}::text as id from ${cube.relation} where ${cube.tenantColumn} = $1 and ${patient.column} = any($2::text[]) and ${patientId.column} is not null`,
    params: [tenantId, names],
  });
  return found.map((row) => row.id as string);
}
