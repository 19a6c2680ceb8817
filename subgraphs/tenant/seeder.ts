import type { EntityManager } from '@mikro-orm/postgresql';
import { Tenant } from './entities/tenant.entity';

/** Demo data for a new tenant: a realistic clinic profile (the directory arrives with its issue). */
export async function seedTenantDemo(em: EntityManager, tenantId: string): Promise<void> {
  const tenant = await em.findOneOrFail(Tenant, { id: tenantId });
  em.assign(tenant, {
    legalName: `${tenant.name} LLC`,
    timezone: 'America/New_York',
    website: 'https://clinic.example.com',
    phone: '+1 555 010 0100',
    contactEmail: 'frontdesk@clinic.example.com',
    primaryColor: '#2F6FEB',
  });
}
