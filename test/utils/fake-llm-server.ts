import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How the fake answers the next requests:
 * - `ok`: streams `reply` as JSON Lines, cut into small chunks (lines split across chunks), then `[DONE]`;
 * - `slow`: streams the first line of `reply`, then stays silent until the client gives up;
 * - `garbage`: streams prose instead of JSON Lines;
 * - `status`: answers `status` with an OpenAI-style error body, no stream.
 */
export type FakeLlmMode = 'ok' | 'slow' | 'garbage' | 'status';

/** One request the fake received. */
export interface SeenRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** True once the client closed the connection before the answer was complete (a cancellation). */
  aborted: boolean;
  /** Resolves when the exchange is over, either way. */
  finished: Promise<void>;
}

/** A local HTTP server speaking OpenAI's streaming chat completions protocol, for provider tests. */
export interface FakeLlmServer {
  /** The LLM_BASE_URL to use, ending in `/v1`. */
  baseUrl: string;
  mode: FakeLlmMode;
  /** Suggestions sent in `ok` and `slow` modes, one JSON line each. */
  reply: object[];
  /** When set, `ok` mode streams this text as the model's answer instead of `reply`. */
  replyText: string | null;
  /** Status of `status` mode. */
  status: number;
  requests: SeenRequest[];
  close(): Promise<void>;
}

const DEFAULT_REPLY = [
  { kind: 'yes_no', label: 'Do you smoke?', helpText: null, options: [], required: true },
  { kind: 'single_choice', label: 'How often?', helpText: 'Pick one', options: ['Daily', 'Weekly', 'Rarely'], required: false },
  { kind: 'scale', label: 'Rate your pain', helpText: 'Scale from 0 to 10', options: [], required: false },
];

const chunk = (content: string) => `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}\n\n`;

/** Cuts text into pieces of `size` characters, so the client must join lines across chunks. */
const pieces = (text: string, size: number) => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

/** Starts the fake on 127.0.0.1 at a free port. */
export async function startFakeLlmServer(): Promise<FakeLlmServer> {
  const fake: FakeLlmServer = { baseUrl: '', mode: 'ok', reply: DEFAULT_REPLY, replyText: null, status: 500, requests: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (data) => (raw += data));
    req.on('end', () => {
      let finish!: () => void;
      const seen: SeenRequest = { path: req.url ?? '', headers: req.headers, body: JSON.parse(raw || 'null'), aborted: false, finished: new Promise((r) => (finish = r)) };
      fake.requests.push(seen);
      res.on('close', () => {
        seen.aborted = !res.writableFinished;
        finish();
      });
      if (fake.mode === 'status') {
        res.writeHead(fake.status, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ error: { message: 'fake failure', type: 'server_error' } }));
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const lines = fake.reply.map((s) => JSON.stringify(s) + '\n');
      if (fake.mode === 'slow') return void res.write(chunk(lines[0]));
      const text = fake.mode === 'garbage' ? 'Sure! Here are some questions you could ask:\n1. Do you smoke?\n' : (fake.replyText ?? lines.join(''));
      for (const piece of pieces(text, 7)) res.write(chunk(piece));
      res.end('data: [DONE]\n\n');
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return fake;
}
