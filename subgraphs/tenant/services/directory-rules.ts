import { isCountryCode, isEmail, isIsoDate, isPhone, Issues, MAX_TEXT, optionalText, type IssueLoc } from '../../common/field-rules';
import type { CreateLocationInput } from '../inputs/create-location.input';
import type { CreatePatientInput } from '../inputs/create-patient.input';
import type { CreateProviderInput } from '../inputs/create-provider.input';

/** A required name-like field: trimmed, 1 to 200 characters. */
function requiredText(issues: Issues, loc: IssueLoc, value: string): string {
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_TEXT) issues.value(loc, `${loc[loc.length - 1]} must be 1 to ${MAX_TEXT} characters`, value);
  return trimmed;
}

/** An optional field: trimmed, blank is null, checked by `valid` when present. */
function optionalField(issues: Issues, loc: IssueLoc, value: string | null | undefined, valid: (text: string) => boolean, reason: string): string | null {
  const text = optionalText(value) ?? null;
  if (text !== null && !valid(text)) issues.value(loc, reason, value);
  return text;
}

const shortText = (text: string) => text.length <= MAX_TEXT;
const field = (loc: IssueLoc) => String(loc[loc.length - 1]);
const tooLong = (loc: IssueLoc) => `${field(loc)} must be at most ${MAX_TEXT} characters`;

/** True for a US National Provider Identifier: 10 digits whose last is the Luhn check digit over `80840` + the first nine. */
export function isValidNpi(npi: string): boolean {
  if (!/^\d{10}$/.test(npi)) return false;
  const digits = `80840${npi}`.split('').map(Number);
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    const d = double ? digits[i] * 2 : digits[i];
    sum += d > 9 ? d - 9 : d;
  }
  return sum % 10 === 0;
}

/** A validated new location. A physical location needs a street line and a city; a virtual one has no address. */
export function validateLocation(input: CreateLocationInput, at: IssueLoc = ['input']) {
  const issues = new Issues();
  const loc = (name: string) => [...at, name];
  const isVirtual = input.isVirtual ?? false;
  const text = (name: 'addressLineOne' | 'addressLineTwo' | 'city' | 'state' | 'zipCode' | 'partnerLocationId') =>
    optionalField(issues, loc(name), input[name], shortText, tooLong(loc(name)));
  const result = {
    name: requiredText(issues, loc('name'), input.name),
    isVirtual,
    addressLineOne: text('addressLineOne'),
    addressLineTwo: text('addressLineTwo'),
    city: text('city'),
    state: text('state'),
    zipCode: text('zipCode'),
    country: optionalField(issues, loc('country'), input.country, isCountryCode, 'country must be an ISO 3166-1 alpha-2 code, e.g. US')?.toUpperCase() ?? null,
    partnerLocationId: text('partnerLocationId'),
  };
  if (!isVirtual) {
    if (result.addressLineOne === null && !issues.list.some((i) => i.loc[at.length] === 'addressLineOne')) {
      issues.value(loc('addressLineOne'), 'addressLineOne is required for a physical location', input.addressLineOne ?? null);
    }
    if (result.city === null && !issues.list.some((i) => i.loc[at.length] === 'city')) issues.value(loc('city'), 'city is required for a physical location', input.city ?? null);
  }
  issues.throwIfAny();
  return result;
}

/** A validated new provider; `knownLocationIds` are the tenant's locations among those requested (another tenant's read as unknown). */
export function validateProvider(input: CreateProviderInput, knownLocationIds: ReadonlySet<string>, at: IssueLoc = ['input']) {
  const issues = new Issues();
  const loc = (name: string) => [...at, name];
  const result = {
    firstName: requiredText(issues, loc('firstName'), input.firstName),
    lastName: requiredText(issues, loc('lastName'), input.lastName),
    title: optionalField(issues, loc('title'), input.title, shortText, tooLong(loc('title'))),
    email: optionalField(issues, loc('email'), input.email, isEmail, 'email must be a valid e-mail address'),
    phone: optionalField(issues, loc('phone'), input.phone, isPhone, 'phone must be a phone number, e.g. +1 555 010 0100'),
    npi: optionalField(issues, loc('npi'), input.npi, isValidNpi, 'npi must be a 10-digit National Provider Identifier with a valid check digit'),
  };
  (input.locationIds ?? []).forEach((id, i) => {
    if (!knownLocationIds.has(id.toLowerCase())) issues.value([...loc('locationIds'), i], 'unknown location', id);
  });
  issues.throwIfAny();
  return result;
}

/** A validated new patient. Error messages name the field, never echo PHI beyond the caller's own `input`. */
export function validatePatient(input: CreatePatientInput, today = new Date(), at: IssueLoc = ['input']) {
  const issues = new Issues();
  const loc = (name: string) => [...at, name];
  const firstName = requiredText(issues, loc('firstName'), input.firstName);
  const lastName = requiredText(issues, loc('lastName'), input.lastName);
  const email = optionalField(issues, loc('email'), input.email, isEmail, 'email must be a valid e-mail address');
  const phone = optionalField(issues, loc('phone'), input.phone, isPhone, 'phone must be a phone number, e.g. +1 555 010 0100');
  const dateOfBirth = optionalField(issues, loc('dateOfBirth'), input.dateOfBirth, isIsoDate, 'dateOfBirth must be a date as YYYY-MM-DD');
  if (dateOfBirth !== null && isIsoDate(dateOfBirth)) {
    if (dateOfBirth > today.toISOString().slice(0, 10)) issues.value(loc('dateOfBirth'), 'dateOfBirth must not be in the future', input.dateOfBirth);
    else if (dateOfBirth < '1900-01-01') issues.value(loc('dateOfBirth'), 'dateOfBirth must be on or after 1900-01-01', input.dateOfBirth);
  }
  const result = { firstName, lastName, email, phone, dateOfBirth };
  issues.throwIfAny();
  return result;
}
