import type { RunningTracing } from './sdk';
import { readTracingSettings } from './settings';

// Imported first by every entry point (or loaded with `node --require`), so the SDK patches
// `http`, `pg` and `pino` before anything loads them. A bad OTEL_* value starts no tracing here;
// the process's configuration loader reports it with its other problems and stops the start.
// The SDK (exporter, instrumentations, semantic conventions: ~5 MiB of heap) is required only when
// tracing is on, so a process that does not trace does not carry it.
const running: RunningTracing | null = (() => {
  const { settings, problems } = readTracingSettings(process.env);
  if (!settings.enabled || problems.length > 0) {
    // Spans without contexts: the API's no-op tracer's kept requests alive through scavenges (untraced.ts).
    (require('./untraced') as typeof import('./untraced')).registerUntraced();
    return null;
  }
  const { startTracing } = require('./sdk') as typeof import('./sdk');
  return startTracing(settings);
})();

/** Sends the spans still queued; entry points await it before they exit (a no-op without an exporter). */
export async function flushTracing(): Promise<void> {
  await running?.flush().catch(() => undefined);
}
