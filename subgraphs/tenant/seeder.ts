import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../platform/tenant-scope';
import { LocationRepository } from './repositories/location.repository';
import { PatientRepository } from './repositories/patient.repository';
import { ProviderRepository } from './repositories/provider.repository';
import { TenantRepository } from './repositories/tenant.repository';
import { DEMO_LOCATIONS, DEMO_PATIENT_COUNT, DEMO_PROVIDERS, demoPatient } from './seed-data';

/**
 * Demo data for a new tenant: a physiotherapy practice with two clinics and a telehealth
 * location, six providers and forty patients, deterministic so later seeders (payments,
 * gift cards) can rely on it. Runs inside the caller's transaction, which writes what it adds.
 */
export async function seedTenantDemo(em: EntityManager, scope: TenantScope): Promise<void> {
  const tenant = await new TenantRepository(em, scope).loadForUpdate();
  if (!tenant) throw new Error('The tenant to seed does not exist');
  Object.assign(tenant, {
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
  const locationRepository = new LocationRepository(em, scope);
  const providers = new ProviderRepository(em, scope);
  const patients = new PatientRepository(em, scope);
  const locations = DEMO_LOCATIONS.map((data) => locationRepository.add({ ...data }));
  for (const { at, ...data } of DEMO_PROVIDERS) {
    const local = `${data.firstName}.${data.lastName}`.toLowerCase();
    providers.add({ ...data, email: `${local}@clinic.example.com`, phone: '+1 207 555 0100' }, at.map((i) => locations[i]));
  }
  for (let i = 0; i < DEMO_PATIENT_COUNT; i++) patients.add({ ...demoPatient(i) });
}
