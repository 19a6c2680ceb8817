import { isUuid } from '../../../platform/ids';
import { checkIntRange, isCountryCode, isEmail, isPhone, Issues, MAX_TEXT, optionalText, parseHttpUrl, type IssueLoc } from '../../common/field-rules';
import type { Tenant } from '../entities/tenant.entity';
import type { TenantAddressInput, TenantSettingsInput, UpdateTenantInput } from '../inputs/update-tenant.input';
import { MAX_REMINDER_HOURS, type StoredTenantSettings } from '../tenant-settings';
import { canonicalTimeZone, TIME_ZONE_REASON } from '../../common/time-zone';

/** The tenant columns an update may change, already validated and normalised. */
export type TenantPatch = Partial<
  Pick<
    Tenant,
    | 'name' | 'legalName' | 'timezone' | 'locale' | 'currency' | 'website' | 'phone' | 'contactEmail' | 'primaryColor'
    | 'addressLine1' | 'addressLine2' | 'addressCity' | 'addressState' | 'addressPostalCode' | 'addressCountry' | 'settings'
  >
>;

function canonicalLocale(tag: string): string | null {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/**
 * Validates a partial tenant update (docs/decisions.md, Errors: strings, every problem at once) and
 * returns what to write. Fields not sent are left out; null or blank clears an optional field.
 */
export function validateTenantUpdate(input: UpdateTenantInput, stored: StoredTenantSettings, at: IssueLoc = ['input']): TenantPatch {
  const issues = new Issues();
  const patch: TenantPatch = {};

  // Fields every tenant must have: null is a type error, as Pydantic says of a non-optional str.
  const required = (field: 'name' | 'timezone' | 'locale' | 'currency', normalise: (text: string) => string | null, reason: string) => {
    const value = input[field];
    if (value === undefined) return;
    if (value === null) return issues.notNullString([...at, field]);
    const normalised = normalise(value.trim());
    if (normalised === null) issues.value([...at, field], reason, value);
    else patch[field] = normalised;
  };
  required('name', (t) => (t.length >= 1 && t.length <= MAX_TEXT ? t : null), `name must be 1 to ${MAX_TEXT} characters`);
  required('timezone', canonicalTimeZone, TIME_ZONE_REASON);
  required('locale', canonicalLocale, 'locale must be a BCP 47 language tag, e.g. en-US');
  required('currency', (t) => (CURRENCIES.has(t.toUpperCase()) ? t.toUpperCase() : null), 'currency must be an ISO 4217 code, e.g. USD');

  const optional = (field: 'legalName' | 'website' | 'phone' | 'contactEmail' | 'primaryColor', check: (text: string) => string | null, reason: string) => {
    const value = optionalText(input[field]);
    if (value === undefined) return;
    if (value === null) {
      patch[field] = null;
      return;
    }
    const normalised = check(value);
    if (normalised === null) issues.value([...at, field], reason, input[field]);
    else patch[field] = normalised;
  };
  optional('legalName', (t) => (t.length <= MAX_TEXT ? t : null), `legalName must be at most ${MAX_TEXT} characters`);
  optional('website', (t) => (parseHttpUrl(t) ? t : null), 'website must be an http or https URL');
  optional('phone', (t) => (isPhone(t) ? t : null), 'phone must be a phone number, e.g. +1 555 010 0100');
  optional('contactEmail', (t) => (isEmail(t) ? t : null), 'contactEmail must be a valid e-mail address');
  optional('primaryColor', (t) => (/^#[0-9A-Fa-f]{6}$/.test(t) ? t.toUpperCase() : null), 'primaryColor must be a hex colour #RRGGBB');

  if (input.address === null) {
    Object.assign(patch, { addressLine1: null, addressLine2: null, addressCity: null, addressState: null, addressPostalCode: null, addressCountry: null });
  } else if (input.address !== undefined) {
    Object.assign(patch, validateAddress(input.address, [...at, 'address'], issues));
  }
  if (input.settings !== undefined && input.settings !== null) {
    patch.settings = validateSettings(input.settings, stored, [...at, 'settings'], issues);
  }
  issues.throwIfAny();
  return patch;
}

const ADDRESS_COLUMNS = {
  line1: 'addressLine1',
  line2: 'addressLine2',
  city: 'addressCity',
  state: 'addressState',
  postalCode: 'addressPostalCode',
  country: 'addressCountry',
} as const;

function validateAddress(address: TenantAddressInput, at: IssueLoc, issues: Issues): TenantPatch {
  const patch: TenantPatch = {};
  for (const [field, column] of Object.entries(ADDRESS_COLUMNS) as [keyof TenantAddressInput, (typeof ADDRESS_COLUMNS)[keyof TenantAddressInput]][]) {
    const value = optionalText(address[field]);
    if (value === undefined) continue;
    if (value !== null && value.length > MAX_TEXT) issues.value([...at, field], `${field} must be at most ${MAX_TEXT} characters`, address[field]);
    else if (field === 'country' && value !== null && !isCountryCode(value)) {
      issues.value([...at, field], 'country must be an ISO 3166-1 alpha-2 code, e.g. US', address[field]);
    } else patch[column] = field === 'country' && value !== null ? value.toUpperCase() : value;
  }
  return patch;
}

function validateSettings(settings: TenantSettingsInput, stored: StoredTenantSettings, at: IssueLoc, issues: Issues): StoredTenantSettings {
  const next: StoredTenantSettings = { ...stored };
  const hours = settings.appointmentReminderHours;
  if (hours === null) issues.add({ type: 'int_type', loc: [...at, 'appointmentReminderHours'], msg: 'Input should be a valid integer', input: null });
  else if (hours !== undefined) {
    const before = issues.list.length;
    checkIntRange(issues, [...at, 'appointmentReminderHours'], hours, 0, MAX_REMINDER_HOURS);
    if (issues.list.length === before) next.appointmentReminderHours = hours;
  }
  if (settings.sendReceiptEmails === null) issues.add({ type: 'bool_type', loc: [...at, 'sendReceiptEmails'], msg: 'Input should be a valid boolean', input: null });
  else if (settings.sendReceiptEmails !== undefined) next.sendReceiptEmails = settings.sendReceiptEmails;
  const template = optionalText(settings.defaultNoteTemplateId);
  if (template !== undefined) {
    if (template !== null && !isUuid(template)) issues.value([...at, 'defaultNoteTemplateId'], 'defaultNoteTemplateId must be a UUID', settings.defaultNoteTemplateId);
    else next.defaultNoteTemplateId = template === null ? null : template.toLowerCase();
  }
  return next;
}
