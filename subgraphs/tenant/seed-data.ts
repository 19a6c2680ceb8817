/** Demo clinic data: invented names, reserved example domains and 555-01xx numbers, so nothing real is ever seeded. */

/** The demo clinic's locations; the last is virtual. */
export const DEMO_LOCATIONS = [
  { name: 'Harbor Main Clinic', isVirtual: false, addressLineOne: '120 Commercial Street', addressLineTwo: 'Suite 200', city: 'Portland', state: 'ME', zipCode: '04101', country: 'US', partnerLocationId: 'EHR-LOC-001' },
  { name: 'Forest Avenue Clinic', isVirtual: false, addressLineOne: '48 Forest Avenue', addressLineTwo: null, city: 'Portland', state: 'ME', zipCode: '04103', country: 'US', partnerLocationId: 'EHR-LOC-002' },
  { name: 'Telehealth', isVirtual: true, addressLineOne: null, addressLineTwo: null, city: null, state: null, zipCode: null, country: 'US', partnerLocationId: 'EHR-LOC-VIRTUAL' },
] as const;

/** The demo providers; `at` indexes DEMO_LOCATIONS. NPIs carry valid check digits. */
export const DEMO_PROVIDERS = [
  { firstName: 'Maya', lastName: 'Okafor', title: 'PT, DPT', npi: '1234567893', at: [0, 2] },
  { firstName: 'Daniel', lastName: 'Brennan', title: 'PT, DPT, OCS', npi: '1245319599', at: [0] },
  { firstName: 'Priya', lastName: 'Raman', title: 'OTR/L', npi: '1679576722', at: [1, 2] },
  { firstName: 'Lucas', lastName: 'Ferreira', title: 'DC', npi: null, at: [1] },
  { firstName: 'Hannah', lastName: 'Lindqvist', title: 'LMT', npi: null, at: [0, 1] },
  { firstName: 'Samuel', lastName: 'Adeyemi', title: 'PTA', npi: null, at: [0, 1, 2] },
] as const;

/** First names the demo patients are drawn from. */
export const PATIENT_FIRST_NAMES = [
  'Olivia', 'Liam', 'Emma', 'Noah', 'Ava', 'Elijah', 'Sofia', 'James', 'Isabella', 'Mateo',
  'Mia', 'Benjamin', 'Amelia', 'Lucas', 'Harper', 'Henry', 'Evelyn', 'Theodore', 'Aria', 'Jack',
];

/** Last names the demo patients are drawn from. */
export const PATIENT_LAST_NAMES = [
  'Garcia', 'Nguyen', 'Patel', 'Johnson', 'Kowalski', 'Hernandez', 'Kim', 'Murphy', 'Rossi', 'Schmidt',
  'Tanaka', 'Dubois', 'Silva', 'Cohen', 'Andersson', 'Mensah', 'Ivanova', "O'Neill", 'Haddad', 'Walker',
];

/** How many demo patients a demo tenant gets. */
export const DEMO_PATIENT_COUNT = 40;

/** The i-th demo patient: names paired by co-prime strides so the 40 are distinct, dates spread over 1940-2015. */
export function demoPatient(i: number) {
  const firstName = PATIENT_FIRST_NAMES[(i * 7) % PATIENT_FIRST_NAMES.length];
  const lastName = PATIENT_LAST_NAMES[(i * 3 + Math.floor(i / PATIENT_LAST_NAMES.length)) % PATIENT_LAST_NAMES.length];
  const year = 1940 + ((i * 37) % 76);
  const month = ((i * 5) % 12) + 1;
  const day = ((i * 11) % 28) + 1;
  const local = `${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]/g, '');
  return {
    firstName,
    lastName,
    // Every other patient has no e-mail on file, as in a real practice.
    email: i % 4 === 3 ? null : `${local}${i}@example.com`,
    phone: `+1 207 555 01${String(i % 100).padStart(2, '0')}`,
    dateOfBirth: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
  };
}
