import type { SubgraphContext } from '../../shared/context';
import { toLocationView, toPatientView, toProviderView } from '../directory-view';
import { LocationRepository } from '../repositories/location.repository';
import { PatientRepository } from '../repositories/patient.repository';
import { ProviderRepository } from '../repositories/provider.repository';
import type { LocationType } from '../types/location.type';
import type { PatientType } from '../types/patient.type';
import type { ProviderType } from '../types/provider.type';

/** Resolves `Location` references from other subgraphs; another tenant's id resolves to null like an unknown one. */
export async function resolveLocationReference(reference: { id: string }, ctx: SubgraphContext): Promise<LocationType | null> {
  if (!ctx.tenantId) return null;
  const location = await new LocationRepository(ctx.em).findById(reference.id);
  return location && toLocationView(location);
}

/** Resolves `Provider` references, tenant-scoped. */
export async function resolveProviderReference(reference: { id: string }, ctx: SubgraphContext): Promise<ProviderType | null> {
  if (!ctx.tenantId) return null;
  const provider = await new ProviderRepository(ctx.em).findById(reference.id);
  return provider && toProviderView(provider);
}

/** Resolves `Patient` references, tenant-scoped. */
export async function resolvePatientReference(reference: { id: string }, ctx: SubgraphContext): Promise<PatientType | null> {
  if (!ctx.tenantId) return null;
  const patient = await new PatientRepository(ctx.em).findById(reference.id);
  return patient && toPatientView(patient);
}
