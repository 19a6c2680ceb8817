import { Entity, Index, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/**
 * A patient of the practice. Every personal field is PHI: `hidden`, so a serialised entity
 * (a log line, an error report) never carries it; resolvers read the properties explicitly.
 */
@Entity({ tableName: 'patients' })
@Index({ properties: ['tenantId', 'lastName', 'firstName'] })
export class Patient extends TenantScopedEntity {
  @Property({ type: 'text', fieldName: 'first_name', hidden: true })
  firstName!: string;

  @Property({ type: 'text', fieldName: 'last_name', hidden: true })
  lastName!: string;

  @Property({ type: 'text', nullable: true, hidden: true })
  email: string | null = null;

  @Property({ type: 'text', nullable: true, hidden: true })
  phone: string | null = null;

  /** `YYYY-MM-DD`: a calendar date, no time zone (PostgreSQL `date`, read back as text). */
  @Property({ type: 'date', fieldName: 'date_of_birth', nullable: true, hidden: true })
  dateOfBirth: string | null = null;
}
