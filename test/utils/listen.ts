import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

/** An express app listening on a free loopback port, for tests of one layer over real HTTP. */
export interface ListeningApp {
  server: Server;
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  base: string;
  /** Stops listening and drops keep-alive sockets, so jest does not wait on them. */
  close(): Promise<void>;
}

/** Starts `app` on 127.0.0.1 at a port the system picks. */
export async function listen(app: Express): Promise<ListeningApp> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return {
    server,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
