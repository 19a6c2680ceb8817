import { testContext } from '../../utils/request-context';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import express from 'express';
import { errorHandler } from '../../../rest-bridge/http-errors';
import { readUpload } from '../../../rest-bridge/upload';
import { listen } from '../../utils/listen';

const MAX = 1024;
const BOUNDARY = 'test-boundary-7MA4YWxkTrZu0gW';

/** A multipart body with one part, written by hand so tests control every byte. */
function part(name: string, content: Buffer | string, filename?: string, type = 'application/octet-stream'): Buffer {
  const disposition = `form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}`;
  const head = `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${filename ? `Content-Type: ${type}\r\n` : ''}\r\n`;
  return Buffer.concat([Buffer.from(head), Buffer.from(content), Buffer.from('\r\n')]);
}
const end = Buffer.from(`--${BOUNDARY}--\r\n`);
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

describe('multipart uploads in the REST bridge (busboy, hard cap)', () => {
  let base: string;
  let close: () => Promise<void>;
  let bytesSeen = 0;

  beforeAll(async () => {
    const app = express();
    app.use(express.json());
    app.post('/upload', (req, _res, next) => {
      // Count what reaches the server, to show an oversized body is not read to its end.
      req.on('data', (chunk: Buffer) => (bytesSeen += chunk.length));
      next();
    });
    app.post('/upload', async (req, res) => {
      res.json(await readUpload(req, res, { field: 'file', variable: 'file', maxBytes: MAX }));
    });
    app.use(errorHandler(() => undefined, () => testContext()));
    ({ base, close } = await listen(app));
  });
  afterAll(() => close());

  const post = (body: Buffer | string, contentType: string | null = MULTIPART) =>
    fetch(`${base}/upload`, { method: 'POST', headers: contentType ? { 'content-type': contentType } : {}, body }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  it('hands over the file as base64 with its claimed name and type; other parts are ignored', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const res = await post(Buffer.concat([part('note', 'hello'), part('other', 'x', 'x.txt'), part('file', bytes, 'logo.png', 'image/png'), end]));
    expect(res).toEqual({ status: 200, body: { filename: 'logo.png', contentType: 'image/png', base64: bytes.toString('base64') } });
  });

  it('accepts a file of exactly the limit and refuses one byte more', async () => {
    expect((await post(Buffer.concat([part('file', Buffer.alloc(MAX, 7), 'a.bin'), end]))).status).toBe(200);
    const over = await post(Buffer.concat([part('file', Buffer.alloc(MAX + 1, 7), 'a.bin'), end]));
    expect(over).toEqual({
      status: 422,
      body: { detail: [{ type: 'value_error', loc: ['body', 'file'], msg: `Value error, file must be at most ${MAX} bytes`, input: 'a.bin', ctx: { error: `file must be at most ${MAX} bytes` } }] },
    });
  });

  it('answers an oversized upload before the body is finished, and closes instead of reading the rest', async () => {
    bytesSeen = 0;
    const total = 8 * 1024 * 1024;
    const response = await new Promise<{ res: IncomingMessage; body: string }>((resolve, reject) => {
      const req = httpRequest(`${base}/upload`, { method: 'POST', headers: { 'content-type': MULTIPART, 'content-length': String(total) } });
      req.on('error', reject);
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => {
          resolve({ res, body });
          req.destroy();
        });
      });
      // Send the head and a little more than the limit, then nothing: the body is never finished.
      req.write(part('file', Buffer.alloc(MAX * 4, 1), 'huge.png').subarray(0, MAX * 3));
    });
    expect(response.res.statusCode).toBe(422);
    expect(response.res.headers.connection).toBe('close');
    expect(JSON.parse(response.body).detail[0]).toMatchObject({ type: 'value_error', loc: ['body', 'file'], input: 'huge.png' });
    expect(bytesSeen).toBeLessThan(total);
  });

  it('says `missing` when the field is absent, the body is empty or it is not multipart at all', async () => {
    const missing = { status: 422, body: { detail: [{ type: 'missing', loc: ['body', 'file'], msg: 'Field required', input: null }] } };
    expect(await post(Buffer.concat([part('logo', Buffer.from('x'), 'a.png'), end]))).toEqual(missing);
    expect(await post(end)).toEqual(missing);
    expect(await post(JSON.stringify({ file: 'aGVsbG8=' }), 'application/json')).toEqual(missing);
    expect(await post('file=hello', 'text/plain')).toEqual(missing);
    expect(await post('', null)).toEqual(missing);
  });

  it('refuses a text field in place of the file, and a malformed multipart body', async () => {
    const text = await post(Buffer.concat([part('file', 'just text'), end]));
    expect(text.status).toBe(422);
    expect(text.body.detail[0]).toMatchObject({ type: 'value_error', loc: ['body', 'file'], input: 'just text' });
    const truncated = await post(part('file', Buffer.from('abc'), 'a.png'));
    expect(truncated.status).toBe(422);
    expect(truncated.body.detail[0]).toMatchObject({ type: 'value_error', loc: ['body'], msg: 'Value error, the multipart body is malformed: Unexpected end of form' });
    const noBoundary = await post(Buffer.from('x'), 'multipart/form-data');
    expect(noBoundary.body.detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'file'] });
  });
});
