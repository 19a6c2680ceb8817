/**
 * The V8 flags `npm start` (package.json) and the Dockerfile run servers with; the benchmark runs
 * the app and the floor with the same, so neither is measured on settings the other lacks. A 32 MiB
 * semi-space (twice V8's default) lets the objects of requests in flight die in the young generation
 * instead of being promoted and collected by full GCs; 64 cost ~45 MiB more per worker for no CPU
 * measured (bench/RESULTS.md).
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=32'];
