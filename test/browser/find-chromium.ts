import { accessSync, constants } from 'node:fs';

/** Where Debian's `chromium` package (and most distributions') puts the browser; CHROMIUM_PATH overrides. */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

const executable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * The Chromium the browser tests drive, or null when this machine has none. Absent on CI it is an
 * error (CI installs Debian's `chromium`, see .ci/run); absent locally the caller skips, loudly.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  const found = [env.CHROMIUM_PATH, ...CANDIDATES].find((file): file is string => Boolean(file) && executable(file!)) ?? null;
  if (!found && env.CI === 'true') {
    throw new Error('No Chromium at CHROMIUM_PATH or /usr/bin/chromium, and CI=true: install it (apt-get install -y chromium)');
  }
  if (!found) {
    console.warn('\n*** SKIPPING the GraphiQL browser tests: no Chromium found (apt-get install -y chromium, or set CHROMIUM_PATH) ***\n');
  }
  return found;
}
