import path from 'node:path';
import { startChild, type Child } from './child';
import { waitForJsonLine } from './readiness';
import { SERVER_NODE_FLAGS } from './server-flags';

/** The floor server (bench/floor-server.ts) running as a child process. */
export interface Floor {
  child: Child;
  url: string;
}

/**
 * Starts `dist/bench/floor-server.js` on a port it picks, with `workers` HTTP processes (the app's
 * WEB_CONCURRENCY, so both run in the same shape), and waits for its `{"port": n}` line.
 */
export async function startFloor(databaseUrl: string, workers: number): Promise<Floor> {
  const child = startChild('floor', path.join(__dirname, '..', 'floor-server.js'), { DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', FLOOR_WORKERS: String(workers) }, SERVER_NODE_FLAGS);
  try {
    const port = await waitForJsonLine(child, (value) => (typeof value?.port === 'number' ? (value.port as number) : undefined));
    child.echo();
    return { child, url: `http://127.0.0.1:${port}` };
  } catch (error) {
    await child.stop();
    throw error;
  }
}
