/**
 * Largest logo side, in pixels. A small file can declare a huge canvas (a decompression bomb), so
 * the header's dimensions are checked before any pixel is decoded; 4096 is far beyond any logo.
 */
export const LOGO_MAX_SIDE = 4096;

/** Largest decoded canvas (width x height), handed to the decoder as its own hard limit as well. */
export const LOGO_MAX_PIXELS = LOGO_MAX_SIDE * LOGO_MAX_SIDE;

/**
 * Logo decodes one process runs at once. Decoding happens on libuv's thread pool (4 threads,
 * shared with DNS, file and crypto work), so a burst of uploads must not take all of it: the rest
 * wait their turn in line rather than fail.
 */
export const LOGO_DECODES_AT_ONCE = 2;
