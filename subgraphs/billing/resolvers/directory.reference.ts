import type { LocationRef, PatientRef } from '../types/directory-refs.type';

/**
 * `Patient` references arriving from the gateway. Billing stores no patients, so the reference is
 * just its key: the fields billing adds read only the calling tenant's rows, so a foreign or
 * unknown id yields empty lists, never another tenant's data.
 */
export const resolvePatientReference = (reference: { id: string }): PatientRef => ({ id: reference.id });

/** `Location` references arriving from the gateway; same reasoning as for patients. */
export const resolveLocationReference = (reference: { id: string }): LocationRef => ({ id: reference.id });
