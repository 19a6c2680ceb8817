import { randomUUID } from 'node:crypto';
import { Entity, Filter, PrimaryKey, Property } from '@mikro-orm/core';

/** A clinic (practice) using the platform; the root of all tenant data. */
@Entity({ tableName: 'tenants' })
// The tenant row is its own scope: a request sees only the tenant it authenticated as.
@Filter({ name: 'tenant', cond: (args: { tenantId: string }) => ({ id: args.tenantId }), default: true })
export class Tenant {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', fieldName: 'legal_name', nullable: true })
  legalName: string | null = null;

  @Property({ type: 'text' })
  timezone = 'UTC';

  @Property({ type: 'text' })
  locale = 'en-US';

  @Property({ type: 'text' })
  currency = 'USD';

  @Property({ type: 'text', nullable: true })
  website: string | null = null;

  @Property({ type: 'text', nullable: true })
  phone: string | null = null;

  @Property({ type: 'text', fieldName: 'contact_email', nullable: true })
  contactEmail: string | null = null;

  @Property({ type: 'text', fieldName: 'primary_color', nullable: true })
  primaryColor: string | null = null;

  @Property({ type: 'timestamptz', fieldName: 'created_at' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', fieldName: 'updated_at', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
