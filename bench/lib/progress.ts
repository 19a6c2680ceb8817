const started = Date.now();

// A closed pipe (`npm run bench | head`) would otherwise throw asynchronously and kill the run
// before it stops its servers; progress then goes unseen, and RESULTS.md is still written.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

/** Prints one progress line, stamped with the seconds since the benchmark began, so slow phases stand out. */
export function say(message: string): void {
  const seconds = ((Date.now() - started) / 1000).toFixed(1).padStart(5);
  process.stdout.write(`[bench ${seconds}s] ${message}\n`);
}
