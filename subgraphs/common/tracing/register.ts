import { startTracing, type RunningTracing } from './sdk';
import { readTracingSettings } from './settings';

// Imported first by every entry point (or loaded with `node --require`), so the SDK patches
// `http`, `pg` and `pino` before anything loads them. A bad OTEL_* value starts no tracing here;
// the process's configuration loader reports it with its other problems and stops the start.
const running: RunningTracing | null = (() => {
  const { settings, problems } = readTracingSettings(process.env);
  return settings.enabled && problems.length === 0 ? startTracing(settings) : null;
})();

/** Sends the spans still queued; entry points await it before they exit (a no-op without an exporter). */
export async function flushTracing(): Promise<void> {
  await running?.flush().catch(() => undefined);
}
