import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** A dead webhook receiver: accepts connections, reads what is sent, never answers. */
export interface HangingReceiver {
  url: string;
  /** Connections accepted so far (each is one delivery attempt, or a kept-alive socket's first). */
  accepted: number;
  /** Drops every open connection: attempts in flight fail at once instead of at their timeout. */
  release(): void;
  close(): Promise<void>;
}

/** Starts a hanging receiver on 127.0.0.1. */
export async function startHangingReceiver(): Promise<HangingReceiver> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    receiver.accepted += 1;
    sockets.add(socket);
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  const receiver: HangingReceiver = {
    url: '',
    accepted: 0,
    release: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: () => new Promise<void>((resolve) => {
      receiver.release();
      server.close(() => resolve());
    }),
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
