/**
 * Largest logo side, in pixels. A small file can declare a huge canvas (a decompression bomb), so
 * the header's dimensions are checked before any pixel is decoded; 4096 is far beyond any logo.
 */
export const LOGO_MAX_SIDE = 4096;

/** Largest decoded canvas (width x height), handed to the decoder as its own hard limit as well. */
export const LOGO_MAX_PIXELS = LOGO_MAX_SIDE * LOGO_MAX_SIDE;

/**
 * Logo decodes one process runs at once. Decoding happens on libuv's thread pool (4 threads,
 * shared with DNS, file and crypto work), so a burst of uploads must not take all of it. Each
 * tenant decodes one at a time, and a freed slot goes to the tenant served least recently, so one
 * tenant's burst of uploads waits for its own turn (TenantDeps.decodes).
 */
export const LOGO_DECODES_AT_ONCE = 2;

/** How long an upload may wait for a decode slot before it is a 429 with Retry-After. */
export const LOGO_DECODE_WAIT_MS = 10_000;

/**
 * Largest side of a stored logo, in pixels: uploads are resized to fit inside this square, never
 * enlarged (docs/decisions.md, Logos are bounded). 1024 covers a header shown at 512 CSS pixels
 * on a 2x screen and any receipt printer (576 dots across 80 mm paper); a bigger canvas only adds
 * bytes every page view pays for. A 45 KB upload could otherwise be stored as 28 MB of pixels.
 */
export const LOGO_STORED_SIDE = 1024;

/** Uploads one tenant may have waiting for a decode; one more is a 429 at once (each holds its bytes while it waits). */
export const LOGO_DECODES_QUEUED_PER_TENANT = 16;
