import net from 'node:net';

/** A TCP proxy a test can cut and restore, standing for a dependency (PostgreSQL) that goes away and comes back. */
export interface TcpProxy {
  /** The port it listens on (the same after `restore`). */
  port: number;
  /** Closes every connection and stops listening: new connections are refused, as by a stopped server. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port to `host:port`. */
export async function startTcpProxy(host: string, port: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, host);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  const listen = (at: number) => new Promise<void>((resolve, reject) => server.once('error', reject).listen(at, '127.0.0.1', () => (server.off('error', reject), resolve())));
  await listen(0);
  const proxyPort = (server.address() as net.AddressInfo).port;
  const cut = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await closed;
  };
  return { port: proxyPort, cut, restore: () => listen(proxyPort), close: () => (server.listening ? cut() : Promise.resolve()) };
}
