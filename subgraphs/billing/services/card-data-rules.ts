import { containsCardNumber, numberIsCardNumber, passesLuhn } from '../../../schema/card-number';

export { passesLuhn };

/** Separators people type inside card and account numbers. */
const SEPARATORS = /[\s-]/g;

/** True for 12 to 19 digits (spaces and dashes allowed): the length of a card number (ISO/IEC 7812) or a full account number. */
export function looksLikeFullNumber(text: string): boolean {
  return /^\d{12,19}$/.test(text.replace(SEPARATORS, ''));
}

/** True for a card number in free text: the one shared rule (schema/card-number.ts), which every mutation's arguments already pass. */
export const looksLikeCardNumber = containsCardNumber;

/** True for a 9-digit ABA routing number with a valid checksum: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function isAbaRoutingNumber(text: string): boolean {
  if (!/^\d{9}$/.test(text)) return false;
  const d = text.split('').map(Number);
  return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8])) % 10 === 0;
}

// Key names that only ever hold a full number or a security code; compared without case or punctuation.
const FORBIDDEN_KEYS = new Set(['number', 'cardnumber', 'pan', 'primaryaccountnumber', 'accountnumber', 'bankaccountnumber', 'iban', 'cvc', 'cvc2', 'cvv', 'cvv2', 'securitycode']);

/** True for a key such as `cardNumber`, `account_number` or `cvv`. */
export const isForbiddenKey = (key: string): boolean => FORBIDDEN_KEYS.has(key.toLowerCase().replace(/[^a-z0-9]/g, ''));

/**
 * The path of the first place in free-form JSON that carries card data: a forbidden key, or a
 * string (or number) that reads as a card number. Null when clean. The value itself is never returned.
 */
export function findCardData(value: unknown, path: (string | number)[] = [], depth = 0): (string | number)[] | null {
  if (depth > 20) return null;
  if (typeof value === 'string') return looksLikeCardNumber(value) ? path : null;
  if (typeof value === 'number') return numberIsCardNumber(value) ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findCardData(value[i], [...path, i], depth + 1);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (isForbiddenKey(key)) return [...path, key];
      const found = findCardData(inner, [...path, key], depth + 1);
      if (found) return found;
    }
  }
  return null;
}
