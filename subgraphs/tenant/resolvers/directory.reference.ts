import type { SubgraphContext } from '../../../platform/context';
import { requireScope } from '../../common/require-tenant';
import { requestLoader } from '../../common/request-loader';
import { toLocationView, toPatientView, toProviderView } from '../directory-view';
import { LocationRepository } from '../repositories/location.repository';
import { PatientRepository } from '../repositories/patient.repository';
import { ProviderRepository } from '../repositories/provider.repository';
import type { LocationType } from '../types/location.type';
import type { PatientType } from '../types/patient.type';
import type { ProviderType } from '../types/provider.type';

/** Index rows by lower-cased id, as references may spell a UUID either way. */
const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((row) => [row.id.toLowerCase(), row]));

// Federation asks for many references at once (`_entities`): each kind is one statement per request level.

/** Resolves `Location` references from other subgraphs; another tenant's id resolves to null like an unknown one. */
export async function resolveLocationReference(reference: { id: string }, ctx: SubgraphContext): Promise<LocationType | null> {
  if (!ctx.tenantId) return null;
  const location = await requestLoader(ctx, 'locationReference', async (ids) => byId(await new LocationRepository(ctx.em, requireScope(ctx)).findByIds(ids))).load(reference.id.toLowerCase());
  return location ? toLocationView(location) : null;
}

/** Resolves `Provider` references, tenant-scoped. */
export async function resolveProviderReference(reference: { id: string }, ctx: SubgraphContext): Promise<ProviderType | null> {
  if (!ctx.tenantId) return null;
  const provider = await requestLoader(ctx, 'providerReference', async (ids) => byId(await new ProviderRepository(ctx.em, requireScope(ctx)).findByIds(ids))).load(reference.id.toLowerCase());
  return provider ? toProviderView(provider) : null;
}

/** Resolves `Patient` references, tenant-scoped; the patients found are one audited read per batch (docs/audit.md). */
export async function resolvePatientReference(reference: { id: string }, ctx: SubgraphContext): Promise<PatientType | null> {
  if (!ctx.tenantId) return null;
  const patient = await requestLoader(ctx, 'patientReference', async (ids) => {
    const found = await new PatientRepository(ctx.em, requireScope(ctx)).findByIds(ids);
    ctx.audit.read('patient', found.map((row) => row.id));
    return byId(found);
  }).load(reference.id.toLowerCase());
  return patient ? toPatientView(patient) : null;
}
