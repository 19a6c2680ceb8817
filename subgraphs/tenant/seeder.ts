import type { EntityManager } from '@mikro-orm/postgresql';
import { Location } from './entities/location.entity';
import { Patient } from './entities/patient.entity';
import { Provider } from './entities/provider.entity';
import { Tenant } from './entities/tenant.entity';
import { DEMO_LOCATIONS, DEMO_PATIENT_COUNT, DEMO_PROVIDERS, demoPatient } from './seed-data';

/**
 * Demo data for a new tenant: a physiotherapy practice with two clinics and a telehealth
 * location, six providers and forty patients, deterministic so later seeders (payments,
 * gift cards) can rely on it. Runs inside the caller's transaction with the tenant filter set.
 */
export async function seedTenantDemo(em: EntityManager, tenantId: string): Promise<void> {
  const tenant = await em.findOneOrFail(Tenant, { id: tenantId });
  em.assign(tenant, {
    legalName: `${tenant.name} LLC`,
    timezone: 'America/New_York',
    website: 'https://clinic.example.com',
    phone: '+1 207 555 0100',
    contactEmail: 'frontdesk@clinic.example.com',
    primaryColor: '#2F6FEB',
    addressLine1: '120 Commercial Street',
    addressLine2: 'Suite 200',
    addressCity: 'Portland',
    addressState: 'ME',
    addressPostalCode: '04101',
    addressCountry: 'US',
  });
  const locations = DEMO_LOCATIONS.map((data) => em.create(Location, { ...data, tenantId } as never));
  for (const { at, ...data } of DEMO_PROVIDERS) {
    const local = `${data.firstName}.${data.lastName}`.toLowerCase();
    const provider = em.create(Provider, { ...data, tenantId, email: `${local}@clinic.example.com`, phone: '+1 207 555 0100' } as never);
    provider.locations.set(at.map((i) => locations[i]));
  }
  for (let i = 0; i < DEMO_PATIENT_COUNT; i++) em.create(Patient, { ...demoPatient(i), tenantId } as never);
}
