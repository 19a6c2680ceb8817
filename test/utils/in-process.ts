import pino from 'pino';
import { startApp, type AppOptions, type RunningApp } from '../../gateway/http/app';
import { loadConfig } from '../../gateway/config';
import { bootPlatform, type Platform } from '../../gateway/database/platform';

/** An all-in-one app started inside the test process, for tests that need their own configuration. */
export interface InProcessApp {
  url: string;
  app: RunningApp;
  platform: Platform;
  close(): Promise<void>;
}

/** Starts the app on a free port against the test database with extra environment (e.g. a small rate limit). */
export async function startInProcessApp(env: Record<string, string> = {}, options: AppOptions = {}): Promise<InProcessApp> {
  const config = loadConfig({
    DATABASE_URL: process.env.DATABASE_URL,
    PORT: '0',
    HOST: '127.0.0.1',
    OPERATOR_TOKEN: process.env.E2E_OPERATOR_TOKEN,
    DEMO_TENANT: '0',
    // Gift card e-mail queued by this app is sent by the end-to-end servers, whose mail the tests
    // read (global-setup sets it off once they run); a sender here would take their jobs too.
    NOTIFICATION_SENDER: process.env.NOTIFICATION_SENDER,
    // Webhook tests run dispatchers of their own settings; one here, with the defaults, would take
    // their jobs too (and another test file's app, running at the same time, would as well).
    WEBHOOK_DISPATCHER: 'off',
    ...env,
  });
  const log = pino({ level: 'silent' });
  const platform = await bootPlatform(config, log, { migrate: false });
  const app = await startApp(config, platform, log, options);
  return {
    url: app.url,
    app,
    platform,
    async close() {
      await app.close();
      await platform.stop();
    },
  };
}
