import { randomInt } from 'node:crypto';

// No 0/O, 1/I/L or U/V look-alikes: a code read aloud or typed from paper survives.
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTWXYZ';

/** A new gift card code, four groups of four (about 78 bits from a CSPRNG), e.g. `7KQM-2WZ9-HX4P-D3RA`. */
export function newGiftCardCode(): string {
  const groups: string[] = [];
  for (let g = 0; g < 4; g++) {
    let group = '';
    for (let i = 0; i < 4; i++) group += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}
