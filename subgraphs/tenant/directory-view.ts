import type { Location } from './entities/location.entity';
import type { Patient } from './entities/patient.entity';
import type { Provider } from './entities/provider.entity';
import type { LocationType } from './types/location.type';
import type { PatientType } from './types/patient.type';
import type { ProviderType } from './types/provider.type';

/** A location as GraphQL returns it. */
export function toLocationView(location: Location): LocationType {
  return {
    id: location.id,
    isVirtual: location.isVirtual,
    name: location.name,
    addressLineOne: location.addressLineOne,
    addressLineTwo: location.addressLineTwo,
    city: location.city,
    state: location.state,
    zipCode: location.zipCode,
    country: location.country,
    createdAt: location.createdAt,
    partnerLocationId: location.partnerLocationId,
  };
}

/** A provider as GraphQL returns it; its locations must be loaded. */
export function toProviderView(provider: Provider): ProviderType {
  return {
    id: provider.id,
    firstName: provider.firstName,
    lastName: provider.lastName,
    title: provider.title,
    email: provider.email,
    phone: provider.phone,
    npi: provider.npi,
    locationIds: provider.locations.getItems().map((l) => l.id).sort(),
    createdAt: provider.createdAt,
    updatedAt: provider.updatedAt,
  };
}

/** A patient as GraphQL returns it; the PHI fields are read explicitly (they are hidden from serialisation). */
export function toPatientView(patient: Patient): PatientType {
  return {
    id: patient.id,
    firstName: patient.firstName,
    lastName: patient.lastName,
    email: patient.email,
    phone: patient.phone,
    dateOfBirth: patient.dateOfBirth,
    createdAt: patient.createdAt,
    updatedAt: patient.updatedAt,
  };
}
