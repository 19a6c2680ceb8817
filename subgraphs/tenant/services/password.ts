import { hash, verify } from '@node-rs/argon2';

/** OWASP's Argon2id floor (19 MiB, 2 passes, 1 lane): the library's defaults, named here so a change is a decision. */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** A hash of nothing anyone knows, verified when there is no user, so that an unknown e-mail costs what a wrong password costs. */
const DECOY = hash('no such user', OPTIONS);

/** Hashes a password (Argon2id, PHC string). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** Whether the password matches the hash; with no hash, spends the same time and answers false. */
export async function passwordMatches(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    await verify(await DECOY, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}

/** The password rule: 12 to 200 characters (NIST SP 800-63B: length over composition). Null when it passes, else the reason. */
export function passwordProblem(password: unknown): string | null {
  if (typeof password !== 'string') return 'the password must be a string';
  const length = [...password].length;
  return length < 12 || length > 200 ? 'the password must be 12 to 200 characters' : null;
}
