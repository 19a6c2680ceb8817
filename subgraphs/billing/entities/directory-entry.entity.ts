import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { TenantFilter } from '../../common/base.entity';

/**
 * Rows of the read-only directory views the tenant subgraph publishes (`tenant.*_directory`;
 * docs/decisions.md, Directory views for billing), never its tables: readonly entities (the ORM
 * writes none) under the tenant guard like billing's own. Only the columns the views promise.
 */
abstract class DirectoryEntry {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Property({ type: 'uuid', fieldName: 'tenant_id' })
  tenantId!: string;
}

/** A patient as `tenant.patient_directory` shows it (PHI: never logged). */
@Entity({ schema: 'tenant', tableName: 'patient_directory', readonly: true })
@TenantFilter()
export class PatientDirectoryEntry extends DirectoryEntry {
  @Property({ type: 'text', fieldName: 'first_name' })
  firstName!: string;

  @Property({ type: 'text', fieldName: 'last_name' })
  lastName!: string;

  @Property({ type: 'text', nullable: true })
  email!: string | null;

  @Property({ type: 'text', nullable: true })
  phone!: string | null;
}

/** A location as `tenant.location_directory` shows it (the columns billing reads). */
@Entity({ schema: 'tenant', tableName: 'location_directory', readonly: true })
@TenantFilter()
export class LocationDirectoryEntry extends DirectoryEntry {
  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'boolean', fieldName: 'is_virtual' })
  isVirtual!: boolean;
}

/** A tenant's mode as `tenant.tenant_mode_directory` shows it: false for a test twin (docs/api.md, Test mode). */
@Entity({ schema: 'tenant', tableName: 'tenant_mode_directory', readonly: true })
@TenantFilter()
export class TenantModeEntry extends DirectoryEntry {
  @Property({ type: 'boolean' })
  livemode!: boolean;
}

/** A provider as `tenant.provider_directory` shows it. */
@Entity({ schema: 'tenant', tableName: 'provider_directory', readonly: true })
@TenantFilter()
export class ProviderDirectoryEntry extends DirectoryEntry {
  @Property({ type: 'text', fieldName: 'first_name' })
  firstName!: string;

  @Property({ type: 'text', fieldName: 'last_name' })
  lastName!: string;
}
