/**
 * The IANA zone's canonical spelling (`america/new_york` -> `America/New_York`), or null. Offsets
 * (`+01:00`) and anything with characters a zone name cannot hold are refused before ICU sees them.
 */
export function canonicalTimeZone(name: string): string | null {
  if (name.length > 64 || !/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(name)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The reason given for a zone name that is not one, wherever a time zone is taken. */
export const TIME_ZONE_REASON = 'timezone must be an IANA time zone name, e.g. America/New_York';
