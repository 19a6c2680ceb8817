import net from 'node:net';
import { performance } from 'node:perf_hooks';

/** What one exchange measured, from the request's first byte written. */
export interface Exchange {
  status: number;
  /** First `data:` event complete in the body; -1 when none came (a JSON answer). */
  firstEventMs: number;
  totalMs: number;
  /** The body, de-chunked. */
  body: string;
}

/**
 * One keep-alive HTTP/1.1 connection speaking just enough of the protocol to time a response
 * byte by byte. fetch (undici) costs the benchmark process about a millisecond of CPU per
 * request, and with a hundred requests sent at once that queueing in the client, not the
 * server, would dominate the times measured; autocannon uses raw sockets for the same reason.
 */
export class RawConnection {
  private buffer = Buffer.alloc(0);
  private onData: (() => void) | null = null;

  private constructor(private readonly socket: net.Socket) {
    socket.setNoDelay(true);
    socket.on('data', (data) => {
      this.buffer = Buffer.concat([this.buffer, data]);
      this.onData?.();
    });
    socket.on('error', () => this.onData?.());
    socket.on('close', () => this.onData?.());
  }

  /** Opens a connection to host:port. */
  static open(host: string, port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, host, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Whether the server may still answer on this connection. */
  get usable(): boolean {
    return !this.socket.destroyed;
  }

  /** Sends one request (a complete HTTP/1.1 message) and reads its whole response. */
  exchange(request: string): Promise<Exchange> {
    return new Promise((resolve, reject) => {
      const started = performance.now();
      let firstEventMs = -1;
      this.onData = () => {
        if (this.socket.destroyed && !this.buffer.length) return reject(new Error('connection closed'));
        const head = this.buffer.indexOf('\r\n\r\n');
        if (head < 0) return;
        const headers = this.buffer.subarray(0, head).toString('latin1');
        const raw = this.buffer.subarray(head + 4);
        if (firstEventMs < 0 && /data: [^\n]*\n\n/.test(raw.toString('utf8'))) firstEventMs = performance.now() - started;
        const length = /\r\ncontent-length: *(\d+)/i.exec(headers);
        const complete = length ? raw.length >= Number(length[1]) : raw.includes('\r\n0\r\n\r\n') || raw.subarray(0, 5).toString() === '0\r\n\r\n';
        if (!complete) return;
        const size = length ? Number(length[1]) : raw.length;
        this.buffer = this.buffer.subarray(head + 4 + size);
        this.onData = null;
        const body = length ? raw.subarray(0, size).toString('utf8') : dechunk(raw);
        resolve({ status: Number(headers.split(' ')[1]), firstEventMs, totalMs: performance.now() - started, body });
      };
      this.socket.write(request);
    });
  }

  /** Closes the connection. */
  close(): void {
    this.socket.destroy();
  }
}

/** The payload of a chunked body, its size lines removed. */
function dechunk(raw: Buffer): string {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const line = raw.indexOf('\r\n', at);
    const size = parseInt(raw.subarray(at, line).toString('latin1'), 16);
    if (!size) break;
    parts.push(raw.subarray(line + 2, line + 2 + size));
    at = line + 2 + size + 2;
  }
  return Buffer.concat(parts).toString('utf8');
}

/** An HTTP/1.1 request message with no body. */
export function requestMessage(method: 'GET' | 'POST', url: URL, headers: Record<string, string>): string {
  const lines = [`${method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`, 'Connection: keep-alive', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  if (method === 'POST') lines.push('Content-Length: 0');
  return `${lines.join('\r\n')}\r\n\r\n`;
}
