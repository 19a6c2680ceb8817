import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import { isUuid } from '../../../platform/ids';

/** A patient as the tenant subgraph's directory view shows it (PHI: never logged). */
export interface DirectoryPatient {
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
}

/** A named directory entry (location or provider), for snapshots. */
export interface DirectoryName {
  id: string;
  name: string;
}

/** A location with what the demo seeder needs to know of it. */
export interface DirectoryLocation extends DirectoryName {
  isVirtual: boolean;
}

/** Deduplicated, lower-cased UUIDs; other shapes cannot exist and are dropped. */
const uuids = (ids: (string | null | undefined)[]): string[] => [...new Set(ids.filter((id): id is string => !!id && isUuid(id)).map((id) => id.toLowerCase()))];

/**
 * Reads of the read-only directory views the tenant subgraph publishes (`tenant.*_directory`),
 * never its tables (docs/decisions.md, Directory views for billing). Raw SQL on billing's connection, so the ORM's tenant
 * filter does not apply: every statement binds the tenant id itself.
 */
export class DirectoryRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  private run<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.em.getConnection().execute<T[]>(sql, params, 'all', this.em.getTransactionContext());
  }

  /** The tenant's patients among these ids, by id. */
  async patients(ids: (string | null | undefined)[]): Promise<Map<string, DirectoryPatient>> {
    const wanted = uuids(ids);
    if (!wanted.length) return new Map();
    const rows = await this.run<DirectoryPatient>(
      `select id, first_name as "firstName", last_name as "lastName", email, phone
       from tenant.patient_directory where tenant_id = ? and id in (?)`,
      [this.scope.tenantId, wanted],
    );
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The tenant's locations among these ids, by id. */
  async locations(ids: (string | null | undefined)[]): Promise<Map<string, DirectoryName>> {
    const wanted = uuids(ids);
    if (!wanted.length) return new Map();
    const rows = await this.run<DirectoryName>(`select id, name from tenant.location_directory where tenant_id = ? and id in (?)`, [this.scope.tenantId, wanted]);
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The tenant's providers among these ids, by id, named "First Last". */
  async providers(ids: (string | null | undefined)[]): Promise<Map<string, DirectoryName>> {
    const wanted = uuids(ids);
    if (!wanted.length) return new Map();
    const rows = await this.run<DirectoryName>(
      `select id, first_name || ' ' || last_name as name from tenant.provider_directory where tenant_id = ? and id in (?)`,
      [this.scope.tenantId, wanted],
    );
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Every location, provider and patient of the tenant (the demo seeder spreads lines over them). */
  async everything(): Promise<{ locations: DirectoryLocation[]; providers: DirectoryName[]; patients: DirectoryPatient[] }> {
    // One after another: inside the seeder's transaction they share one connection.
    const locations = await this.run<DirectoryLocation>(`select id, name, is_virtual as "isVirtual" from tenant.location_directory where tenant_id = ? order by name, id`, [this.scope.tenantId]);
    const providers = await this.run<DirectoryName>(
      `select id, first_name || ' ' || last_name as name from tenant.provider_directory where tenant_id = ? order by last_name, first_name, id`,
      [this.scope.tenantId],
    );
    const patients = await this.run<DirectoryPatient>(
      `select id, first_name as "firstName", last_name as "lastName", email, phone from tenant.patient_directory where tenant_id = ? order by last_name, first_name, id`,
      [this.scope.tenantId],
    );
    return { locations, providers, patients };
  }
}

/** "First Last" of a directory patient. */
export const patientName = (patient: DirectoryPatient): string => `${patient.firstName} ${patient.lastName}`;
