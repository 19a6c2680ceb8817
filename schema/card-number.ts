/**
 * Finds card numbers (PANs) in free text, for the one rule that no request may store or echo one
 * (docs/decisions.md, Card numbers in free text). Pure: no I/O, usable at any layer.
 */

/** Shortest and longest card number (ISO/IEC 7812 allows 8-19; issued cards are 13-19). */
const MIN_DIGITS = 13;
const MAX_DIGITS = 19;
/** Longest run of separators between two digit groups that still joins them ("4111 - 1111"). */
const MAX_SEPARATOR = 3;

/** Whitespace, dashes, dots, slashes and underscores: what people type between digit groups. */
const SEPARATOR = /[\s\p{Pd}._/\\]/u;
/** Invisible format characters (zero-width space, soft hyphen, ...): dropped before scanning. */
const FORMAT = /\p{Cf}/gu;
const DECIMAL_DIGIT = /\p{Nd}/u;
/** Any character that is or may normalise to a digit (circled and parenthesised numbers too): text without one is skipped at once. */
const ANY_NUMBER = /\p{N}/u;
/** A UUID in its usual text form, anywhere in the text. */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The same digit's value in every script: Unicode encodes decimal digits in runs of ten from 0 to 9. */
function digitValue(char: string): number | null {
  if (char >= '0' && char <= '9') return char.charCodeAt(0) - 48;
  if (!DECIMAL_DIGIT.test(char)) return null;
  let start = char.codePointAt(0)!;
  while (start > 0 && DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start--;
  return (char.codePointAt(0)! - start) % 10;
}

/** True when the digits pass the Luhn check, as every card number does. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    const d = double ? Number(digits[i]) * 2 : Number(digits[i]);
    sum += d > 9 ? d - 9 : d;
  }
  return sum % 10 === 0;
}

interface DigitGroup {
  digits: string;
  /** The separator text before this group, or null when the group starts a new run. */
  joinedBy: string | null;
  /** The group follows a `+`: a run that starts so and has at most 15 digits is a phone number (E.164). */
  afterPlus: boolean;
}

/** Longest phone number (E.164): a `+` run of at most this many digits is not read as a card. */
const MAX_PHONE_DIGITS = 15;

/** Digit groups of the text after NFKC (full-width and other compatibility digits become ASCII) and digit folding of every script. */
function digitGroups(text: string): DigitGroup[] {
  const groups: DigitGroup[] = [];
  let digits = '';
  let separator = '';
  let joinable = false;
  let previous = '';
  for (const char of text.normalize('NFKC').replace(FORMAT, '')) {
    const value = digitValue(char);
    if (value !== null) {
      if (digits === '') {
        const joinedBy = joinable && separator.length > 0 && separator.length <= MAX_SEPARATOR ? separator : null;
        groups.push({ digits: '', joinedBy, afterPlus: previous === '+' });
        separator = '';
      }
      digits += value;
      groups[groups.length - 1].digits = digits;
    } else {
      if (digits !== '') joinable = true;
      digits = '';
      if (SEPARATOR.test(char)) separator += char;
      else {
        joinable = false;
        separator = '';
      }
    }
    previous = char;
  }
  return groups;
}

/** The digits without leading zeros: no card number starts with 0, and zeros in front do not change the Luhn sum. */
const significant = (digits: string): string => digits.replace(/^0+/, '');

/** A Luhn-valid 13-19 digit number once leading zeros are dropped (an all-zero UUID is not a card; `0` + a PAN still is). */
function isCard(digits: string): boolean {
  const number = significant(digits);
  return number.length >= MIN_DIGITS && number.length <= MAX_DIGITS && passesLuhn(number);
}

/** Groups that begin a phone number's run: the first group after `+` and those joined to it, when the run has at most 15 digits. */
function phoneGroups(groups: DigitGroup[]): Set<number> {
  const phone = new Set<number>();
  for (let start = 0; start < groups.length; start++) {
    if (!groups[start].afterPlus) continue;
    let end = start + 1;
    let count = groups[start].digits.length;
    while (end < groups.length && groups[end].joinedBy !== null) count += groups[end++].digits.length;
    if (count <= MAX_PHONE_DIGITS) for (let i = start; i < end; i++) phone.add(i);
  }
  return phone;
}

/**
 * True when the text holds a Luhn-valid sequence of 13-19 digits: one group of digits, or
 * consecutive groups joined by the same short separator ("4111 1111 1111 1111",
 * "4111.1111.1111.1111", "4111 - 1111 - ..."). Groups joined by different separators are not
 * joined, so two phone numbers or dates side by side do not read as one long number; a `+`
 * followed by at most 15 digits is a phone number.
 */
export function containsCardNumber(text: string): boolean {
  if (!ANY_NUMBER.test(text)) return false;
  // UUIDs in free text and JSON (a layout's widget ids) are identifiers: about one in 400 holds
  // hex-split digit groups that pass Luhn ('b4226776-5552-42e7-...').
  const groups = digitGroups(text.replace(UUID, ' '));
  const phone = phoneGroups(groups);
  for (let start = 0; start < groups.length; start++) {
    if (phone.has(start)) continue;
    let digits = groups[start].digits;
    if (isCard(digits)) return true;
    const separator = groups[start + 1]?.joinedBy;
    for (let next = start + 1; separator && next < groups.length && groups[next].joinedBy === separator && significant(digits).length < MAX_DIGITS; next++) {
      digits += groups[next].digits;
      if (isCard(digits)) return true;
    }
  }
  return false;
}

/** A JSON number that reads as a card number when written out (metadata sent as numbers). */
export const numberIsCardNumber = (value: number): boolean => Number.isSafeInteger(value) && containsCardNumber(String(value));

/** Why such text is refused; names no digits, so it is safe to answer and to log. */
export const CARD_NUMBER_REASON = 'card numbers are never accepted: send the processor token and the last 4 digits';
