import { containsCardNumber, numberIsCardNumber, passesLuhn } from '../../../schema/card-number';

// The detector behind the one card number rule (schema/card-number.ts; docs/decisions.md, Card numbers in free text).
describe('containsCardNumber', () => {
  it.each([
    ['a bare PAN', '4111111111111111'],
    ['grouped with spaces', '4111 1111 1111 1111'],
    ['in a sentence', 'visa 4111111111111111'],
    ['dashed', '4000-0566-5566-5556'],
    ['dotted', '4111.1111.1111.1111'],
    ['slashed', '4111/1111/1111/1111'],
    ['underscored', '4111_1111_1111_1111'],
    ['spaced dashes', 'card: 4111 - 1111 - 1111 - 1111, thanks'],
    ['odd groups', '41 11 11 11 11 11 11 11'],
    ['Amex 4-6-5', '3782 822463 10005'],
    ['13 digits', '4222222222222'],
    ['19 digits', '6011000000000000001'],
    ['full-width digits', '４１１１１１１１１１１１１１１１'],
    ['full-width spaces and hyphens', '４１１１－１１１１－１１１１－１１１１'],
    ['Arabic-Indic digits', '٤١١١١١١١١١١١١١١١'],
    ['Devanagari digits', '४१११ ११११ ११११ ११११'],
    ['a PAN after a plus sign', '+4111 1111 1111 1111'],
    ['mathematical digits', '𝟒𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏'],
    ['zero-width spaces between digits', '4111\u200b1111\u200b1111\u200b1111'],
    ['letters right next to it', 'x4111111111111111y'],
    ['leading zeros', '004111111111111111'],
  ])('finds %s', (_name, text) => {
    expect(containsCardNumber(text)).toBe(true);
  });

  it.each([
    ['a phone number', '+1 (415) 555-2671'],
    ['an international phone number', '+44 20 7946 0958'],
    ['a 13-digit phone number', '+86 139 1234 5677'], // Luhn-valid digits
    ['a 15-digit phone number', '+86 13912 345678 09'],
    ['an NPI', '1234567893'],
    ['a date', '2026-11-27'],
    ['a date and time', '2026-11-27T16:35:08.123Z'],
    ['two dates', 'from 2024-01-15 to 2024-02-15'],
    ['a US date range', '01/15/2024 - 02/15/2024'],
    ['two phone numbers', '415-555-2671 / 415-555-2672'],
    ['a 12-digit number', '202612010002'],
    ['a 12-digit Luhn-valid number', '411111111113'],
    ['16 digits failing Luhn', '4111111111111112'],
    ['16 grouped digits failing Luhn', '4111 1111 1111 1112'],
    ['20 digits', '41111111111111111110'],
    ['a UUID', '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f'],
    ['the nil UUID', '00000000-0000-0000-0000-000000000000'],
    ['zeros', '0000 0000 0000 0000'],
    ['money', 'Paid $1,234.56 on invoice 2024-0042'],
    ['no digits', 'Jane Doe, 12 Main Street'],
    ['a last 4', 'visa ending in 4242'],
  ])('leaves %s alone', (_name, text) => {
    expect(containsCardNumber(text)).toBe(false);
  });

  it('reads JSON integers written out', () => {
    expect(numberIsCardNumber(4111111111111111)).toBe(true);
    expect(numberIsCardNumber(4111111111111112)).toBe(false);
    expect(numberIsCardNumber(41.5)).toBe(false);
  });

  it('checks Luhn', () => {
    expect(passesLuhn('79927398713')).toBe(true);
    expect(passesLuhn('79927398710')).toBe(false);
  });
});

describe('identifiers are not card numbers', () => {
  // Random UUIDs the rule once refused (about one in 400): letters split their hex into digit groups that pass Luhn.
  it.each(['b4226776-5552-42e7-b4f5-fa3e1f8ef2c0', '49920962-4895-4e77-b766-645bc6677d35', 'e244d6fa-9951-4ff5-9772-126869341aa9'])('%s, alone or inside text and JSON', (uuid) => {
    expect(containsCardNumber(uuid)).toBe(false);
    expect(containsCardNumber(`widget ${uuid.toUpperCase()} moved`)).toBe(false);
    expect(containsCardNumber(JSON.stringify({ widgets: [{ id: uuid, x: 0 }] }))).toBe(false);
  });

  it('finds a card number next to a UUID', () => {
    expect(containsCardNumber('b4226776-5552-42e7-b4f5-fa3e1f8ef2c0 4111 1111 1111 1111')).toBe(true);
  });
});
