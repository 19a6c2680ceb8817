const started = Date.now();

/** Prints one progress line, stamped with the seconds since the benchmark began, so slow phases stand out. */
export function say(message: string): void {
  const seconds = ((Date.now() - started) / 1000).toFixed(1).padStart(5);
  process.stdout.write(`[bench ${seconds}s] ${message}\n`);
}
