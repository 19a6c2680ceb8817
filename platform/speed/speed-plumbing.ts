/**
 * The pieces of speed and memory plumbing that can be switched off (SPEED_PLUMBING; bench/RESULTS.md
 * measures each with and without). Each is a shortcut beside a plainer way that does the same.
 */
export const PLUMBING_PIECES = [
  'rest-direct',
  'rest-compiled',
  'read-pool',
  'slot-list',
  'subgraph-fetcher',
  'first-event-priority',
  'rate-lease',
  'inflight-dedup',
] as const;

/** One piece of SPEED_PLUMBING. */
export type PlumbingPiece = (typeof PLUMBING_PIECES)[number];

/** Which pieces are on. */
export type SpeedPlumbing = ReadonlySet<PlumbingPiece>;

/**
 * Reads SPEED_PLUMBING: unset or `on` for every piece, `off` for none, a comma-separated list of
 * the pieces to run (`read-pool,rate-lease`), or of those to leave out (`-read-pool`). A bad
 * value is added to `problems` and every piece stays on.
 */
export function readSpeedPlumbing(env: NodeJS.ProcessEnv, problems: string[]): SpeedPlumbing {
  const raw = (env.SPEED_PLUMBING ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'on') return new Set(PLUMBING_PIECES);
  if (raw === 'off') return new Set();
  const names = raw.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(PLUMBING_PIECES as readonly string[]).includes(name.replace(/^-/, '')));
  const mixed = names.some((name) => name.startsWith('-')) && names.some((name) => !name.startsWith('-'));
  if (unknown.length || mixed) {
    problems.push(`SPEED_PLUMBING must be on, off, a list of pieces or a list of -pieces (of ${PLUMBING_PIECES.join(', ')}; got "${env.SPEED_PLUMBING}")`);
    return new Set(PLUMBING_PIECES);
  }
  if (names[0]?.startsWith('-')) return new Set(PLUMBING_PIECES.filter((piece) => !names.includes(`-${piece}`)));
  return new Set(names as PlumbingPiece[]);
}
