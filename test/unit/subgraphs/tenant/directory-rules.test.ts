import { ValidationError } from '../../../../schema/errors';
import { isValidNpi, validateLocation, validatePatient, validateProvider } from '../../../../subgraphs/tenant/services/directory-rules';

const issuesOf = (fn: () => unknown) => {
  try {
    fn();
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.issues.map((i) => ({ loc: i.loc.join('.'), msg: i.msg }));
  }
};

describe('directory rules', () => {
  it('checks NPI check digits (Luhn over 80840 + the first nine digits)', () => {
    expect(isValidNpi('1234567893')).toBe(true);
    expect(isValidNpi('1234567890')).toBe(false);
    expect(isValidNpi('123456789')).toBe(false);
    expect(isValidNpi('12345678a3')).toBe(false);
  });

  it('wants an address for a physical location, none for a virtual one', () => {
    expect(issuesOf(() => validateLocation({ name: 'Main' }))).toEqual([
      { loc: 'input.addressLineOne', msg: 'Value error, addressLineOne is required for a physical location' },
      { loc: 'input.city', msg: 'Value error, city is required for a physical location' },
    ]);
    expect(validateLocation({ name: ' Telehealth ', isVirtual: true, country: 'us' })).toMatchObject({ name: 'Telehealth', isVirtual: true, country: 'US', city: null });
    expect(issuesOf(() => validateLocation({ name: '', isVirtual: true, country: 'USA' }))).toEqual([
      { loc: 'input.name', msg: 'Value error, name must be 1 to 200 characters' },
      { loc: 'input.country', msg: 'Value error, country must be an ISO 3166-1 alpha-2 code, e.g. US' },
    ]);
  });

  it('validates provider contact data and NPI', () => {
    const input = { firstName: 'A', lastName: 'B', email: 'nope', phone: 'x', npi: '1111111111', locationIds: ['known', 'unknown'] };
    expect(issuesOf(() => validateProvider(input, new Set(['known'])))).toEqual([
      { loc: 'input.email', msg: 'Value error, email must be a valid e-mail address' },
      { loc: 'input.phone', msg: 'Value error, phone must be a phone number, e.g. +1 555 010 0100' },
      { loc: 'input.npi', msg: 'Value error, npi must be a 10-digit National Provider Identifier with a valid check digit' },
      { loc: 'input.locationIds.1', msg: 'Value error, unknown location' },
    ]);
  });

  it('takes a date of birth as a real, past YYYY-MM-DD date', () => {
    const today = new Date('2026-12-01T12:00:00Z');
    expect(validatePatient({ firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '1990-02-28' }, today).dateOfBirth).toBe('1990-02-28');
    expect(issuesOf(() => validatePatient({ firstName: 'Ada', lastName: 'L', dateOfBirth: '1990-02-30' }, today))).toEqual([
      { loc: 'input.dateOfBirth', msg: 'Value error, dateOfBirth must be a date as YYYY-MM-DD' },
    ]);
    expect(issuesOf(() => validatePatient({ firstName: 'Ada', lastName: 'L', dateOfBirth: '2026-12-02' }, today))).toEqual([
      { loc: 'input.dateOfBirth', msg: 'Value error, dateOfBirth must not be in the future' },
    ]);
    expect(issuesOf(() => validatePatient({ firstName: ' ', lastName: 'L', dateOfBirth: '1899-12-31' }, today))).toEqual([
      { loc: 'input.firstName', msg: 'Value error, firstName must be 1 to 200 characters' },
      { loc: 'input.dateOfBirth', msg: 'Value error, dateOfBirth must be on or after 1900-01-01' },
    ]);
  });
});
