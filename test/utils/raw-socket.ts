import { connect, type Socket } from 'node:net';

/** A raw connection to a test server: what it received so far, and when the server closed it. */
export interface RawSocket {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
}

/** Opens a raw connection (for requests fetch cannot send: trickled headers, a body cut short); resolves once connected. */
export async function openSocket(url: string): Promise<RawSocket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let data = '';
  socket.on('data', (chunk) => (data += chunk.toString('utf8')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return { socket, received: () => data, closed };
}
