import type { EntityManager } from '@mikro-orm/postgresql';
import { storedIds } from '../../../platform/ids';
import type { TenantScope } from '../../../platform/tenant-scope';
import { LocationDirectoryEntry, PatientDirectoryEntry, ProviderDirectoryEntry, TenantModeEntry } from '../entities/directory-entry.entity';

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

const patient = ({ id, firstName, lastName, email, phone }: PatientDirectoryEntry): DirectoryPatient => ({ id, firstName, lastName, email, phone });
const location = ({ id, name, isVirtual }: LocationDirectoryEntry): DirectoryLocation => ({ id, name, isVirtual });
const provider = ({ id, firstName, lastName }: ProviderDirectoryEntry): DirectoryName => ({ id, name: `${firstName} ${lastName}` });
const byId = <T extends { id: string }>(rows: T[]): Map<string, T> => new Map(rows.map((row) => [row.id, row]));

/**
 * Reads of the read-only directory views the tenant subgraph publishes (`tenant.*_directory`),
 * never its tables (docs/decisions.md, Directory views for billing), through readonly entities
 * under the tenant guard. Ids that cannot exist are dropped before the query (`storedIds`).
 */
export class DirectoryRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** The tenant's patients among these ids, by (lower-cased) id. */
  async patients(ids: (string | null | undefined)[]): Promise<Map<string, DirectoryPatient>> {
    const wanted = storedIds(ids);
    if (!wanted.length) return new Map();
    return byId((await this.em.find(PatientDirectoryEntry, { tenantId: this.scope.tenantId, id: { $in: wanted } })).map(patient));
  }

  /** The tenant's locations among these ids, by (lower-cased) id. */
  async locations(ids: (string | null | undefined)[]): Promise<Map<string, DirectoryName>> {
    const wanted = storedIds(ids);
    if (!wanted.length) return new Map();
    return byId((await this.em.find(LocationDirectoryEntry, { tenantId: this.scope.tenantId, id: { $in: wanted } })).map(location));
  }

  /** The tenant's providers among these ids, by (lower-cased) id, named "First Last". */
  async providers(ids: (string | null | undefined)[]): Promise<Map<string, DirectoryName>> {
    const wanted = storedIds(ids);
    if (!wanted.length) return new Map();
    return byId((await this.em.find(ProviderDirectoryEntry, { tenantId: this.scope.tenantId, id: { $in: wanted } })).map(provider));
  }

  /** Whether the tenant is live: false for a test twin, and for a tenant the view does not show, so that doubt never reaches live money. */
  async livemode(): Promise<boolean> {
    const row = await this.em.findOne(TenantModeEntry, { tenantId: this.scope.tenantId });
    return row?.livemode === true;
  }

  /** Every location, provider and patient of the tenant (the demo seeder spreads lines over them). */
  async everything(): Promise<{ locations: DirectoryLocation[]; providers: DirectoryName[]; patients: DirectoryPatient[] }> {
    const tenantId = this.scope.tenantId;
    // One after another: inside the seeder's transaction they share one connection.
    const locations = await this.em.find(LocationDirectoryEntry, { tenantId }, { orderBy: { name: 'asc', id: 'asc' } });
    const providers = await this.em.find(ProviderDirectoryEntry, { tenantId }, { orderBy: { lastName: 'asc', firstName: 'asc', id: 'asc' } });
    const patients = await this.em.find(PatientDirectoryEntry, { tenantId }, { orderBy: { lastName: 'asc', firstName: 'asc', id: 'asc' } });
    return { locations: locations.map(location), providers: providers.map(provider), patients: patients.map(patient) };
  }
}

/** "First Last" of a directory patient. */
export const patientName = (patient: DirectoryPatient): string => `${patient.firstName} ${patient.lastName}`;
