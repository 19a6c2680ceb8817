import { ValidationError } from '../../../../schema/errors';
import { canonicalTimeZone } from '../../../../subgraphs/common/time-zone';
import { validateTenantUpdate } from '../../../../subgraphs/tenant/services/tenant-rules';

/** The issues a tenant update raises, or [] when it passes. */
function issuesOf(input: Record<string, unknown>, stored = {}) {
  try {
    validateTenantUpdate(input as never, stored);
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.issues;
  }
}

const valueError = (field: (string | number)[], reason: string, input: unknown) => ({
  type: 'value_error',
  loc: ['input', ...field],
  msg: `Value error, ${reason}`,
  input,
  ctx: { error: reason },
});

describe('tenant update rules (the 422 strings of docs/decisions.md)', () => {
  it('accepts IANA zones and UTC, in their canonical spelling; refuses offsets and made-up names', () => {
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    expect(canonicalTimeZone('America/New_York')).toBe('America/New_York');
    expect(canonicalTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('US/Eastern')).toBe('America/New_York');
    expect(canonicalTimeZone('+01:00')).toBeNull();
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeNull();
    expect(canonicalTimeZone('')).toBeNull();
  });

  it('returns only the fields sent, normalised', () => {
    const patch = validateTenantUpdate({ timezone: 'europe/paris', currency: 'eur', primaryColor: '#a1b2c3', locale: 'en-gb', name: '  Lakeside  ' } as never, {});
    expect(patch).toEqual({ name: 'Lakeside', timezone: 'Europe/Paris', locale: 'en-GB', currency: 'EUR', primaryColor: '#A1B2C3' });
  });

  it('clears optional fields on null or blank, and the whole address on null', () => {
    expect(validateTenantUpdate({ website: null, phone: '  ', address: null } as never, {})).toEqual({
      website: null,
      phone: null,
      addressLine1: null,
      addressLine2: null,
      addressCity: null,
      addressState: null,
      addressPostalCode: null,
      addressCountry: null,
    });
  });

  it('patches address lines and merges settings into the stored ones', () => {
    const patch = validateTenantUpdate({ address: { city: 'Salem', country: 'us' }, settings: { sendReceiptEmails: false } } as never, { appointmentReminderHours: 12 });
    expect(patch).toEqual({ addressCity: 'Salem', addressCountry: 'US', settings: { appointmentReminderHours: 12, sendReceiptEmails: false } });
  });

  it('reports every rule at once, each with the exact Pydantic shape', () => {
    const issues = issuesOf({
      name: '   ',
      timezone: 'Nowhere/Land',
      locale: 'not a locale!',
      currency: 'XYZ1',
      website: 'ftp://example.com',
      phone: 'call me',
      contactEmail: 'frontdesk.example.com',
      primaryColor: 'blue',
      address: { country: 'Atlantis' },
      settings: { appointmentReminderHours: 400, defaultNoteTemplateId: 'abc' },
    });
    expect(issues).toEqual([
      valueError(['name'], 'name must be 1 to 200 characters', '   '),
      valueError(['timezone'], 'timezone must be an IANA time zone name, e.g. America/New_York', 'Nowhere/Land'),
      valueError(['locale'], 'locale must be a BCP 47 language tag, e.g. en-US', 'not a locale!'),
      valueError(['currency'], 'currency must be an ISO 4217 code, e.g. USD', 'XYZ1'),
      valueError(['website'], 'website must be an http or https URL', 'ftp://example.com'),
      valueError(['phone'], 'phone must be a phone number, e.g. +1 555 010 0100', 'call me'),
      valueError(['contactEmail'], 'contactEmail must be a valid e-mail address', 'frontdesk.example.com'),
      valueError(['primaryColor'], 'primaryColor must be a hex colour #RRGGBB', 'blue'),
      valueError(['address', 'country'], 'country must be an ISO 3166-1 alpha-2 code, e.g. US', 'Atlantis'),
      { type: 'less_than_equal', loc: ['input', 'settings', 'appointmentReminderHours'], msg: 'Input should be less than or equal to 336', input: 400, ctx: { le: 336 } },
      valueError(['settings', 'defaultNoteTemplateId'], 'defaultNoteTemplateId must be a UUID', 'abc'),
    ]);
  });

  it('refuses null for fields every tenant has, as Pydantic refuses None for a str', () => {
    expect(issuesOf({ name: null, timezone: null })).toEqual([
      { type: 'string_type', loc: ['input', 'name'], msg: 'Input should be a valid string', input: null },
      { type: 'string_type', loc: ['input', 'timezone'], msg: 'Input should be a valid string', input: null },
    ]);
  });

  it('takes short hex colours only in full #RRGGBB form and URLs only with http(s)', () => {
    expect(issuesOf({ primaryColor: '#abc' })[0].loc).toEqual(['input', 'primaryColor']);
    expect(issuesOf({ primaryColor: '#GGGGGG' })[0].loc).toEqual(['input', 'primaryColor']);
    expect(issuesOf({ website: 'javascript:alert(1)' })[0].loc).toEqual(['input', 'website']);
    expect(issuesOf({ website: 'https://clinic.example.com/path?q=1' })).toEqual([]);
    expect(issuesOf({ website: 'http://clinic.example.com' })).toEqual([]);
  });
});
