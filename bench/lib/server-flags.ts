/**
 * The V8 flags `npm start` (package.json) and the Dockerfile run servers with; the benchmark runs
 * the app and the floor with the same, so neither is measured on settings the other lacks. A 16 MiB
 * semi-space (a quarter of V8's default on a large host) is enough now that no request outlives
 * its scavenges (docs/decisions.md, "The young generation"): 32 measured the same CPU per request
 * and ~20-30 MiB more per worker (bench/RESULTS.md). The old generation grows by half its live size
 * between full collections, not by up to four times (docs/decisions.md, "The old generation").
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=16', '--heap-growing-percent=50'];
