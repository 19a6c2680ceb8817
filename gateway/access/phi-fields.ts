/** How a masked value is shown (docs/access.md, "Minimum necessary"). */
export type MaskKind = 'name' | 'email' | 'phone' | 'text';

/**
 * Every field of the graph that shows who a patient is or how to reach them, and how it is masked
 * for a caller without `patients:read`. The one list the mask reads; a field named here that the
 * graph lacks stops the gateway at start-up (phi-mask.ts).
 */
export const PHI_FIELDS: Readonly<Record<string, MaskKind>> = {
  'Patient.firstName': 'name',
  'Patient.lastName': 'name',
  'Patient.email': 'email',
  'Patient.phone': 'phone',
  'Patient.dateOfBirth': 'text',
  'IssuedGiftCard.purchasingPatientName': 'name',
  'IssuedGiftCard.purchasingPatientEmail': 'email',
  'IssuedGiftCard.purchasingPatientPhone': 'phone',
  'IssuedGiftCard.recipientPatientName': 'name',
  'IssuedGiftCard.recipientPatientEmail': 'email',
  'IssuedGiftCard.recipientPatientPhone': 'phone',
  'IssuedGiftCard.recipientNote': 'text',
  'ChargeItem.patientName': 'name',
  'RevenueBreakdownItem.patientName': 'name',
  'PaymentMethodBillingContact.name': 'name',
  'PaymentMethodBillingContact.email': 'email',
  'PaymentMethodBillingContact.phone': 'phone',
  'PaymentMethodBillingContact.addressLine1': 'text',
  'PaymentMethodBillingContact.addressLine2': 'text',
};

/**
 * Fields whose value is a list of JSON rows keyed by member name (the query engine's answers), and
 * the members of those rows that name a patient: masked in every row as PHI_FIELDS are. A grouping
 * by patient is as identifying as a revenue line's patient name.
 */
export const PHI_ROW_MEMBERS: Readonly<Record<string, Readonly<Record<string, MaskKind>>>> = {
  'AnalyticsQueryResult.data': { 'revenue.patient': 'name' },
};

/** A value as a caller without `patients:read` sees it: enough to tell two apart at a glance, not to identify anyone. */
export function maskValue(kind: MaskKind, value: unknown): unknown {
  if (typeof value !== 'string' || value === '') return value;
  if (kind === 'name') return `${[...value][0]}***`;
  if (kind === 'email') return `${[...value][0]}***@***`;
  if (kind === 'phone') return `***${value.replace(/\D/g, '').slice(-2)}`;
  return '***';
}
