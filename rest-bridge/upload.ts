import busboy from 'busboy';
import type { Request, Response } from 'express';
import { ValidationError, type ValidationIssue } from '../schema/errors';
import type { UploadMapping } from './types';

/** A file as the bridge hands it to a GraphQL operation: JSON carries only text, so the bytes travel as base64. */
export interface UploadedFileVariable {
  filename: string | null;
  contentType: string | null;
  base64: string;
}

const valueIssue = (loc: (string | number)[], reason: string, input: unknown): ValidationIssue => ({
  type: 'value_error',
  loc,
  msg: `Value error, ${reason}`,
  input,
  ctx: { error: reason },
});

/**
 * Streams a multipart/form-data body through busboy and returns the file of `mapping.field`.
 * The size cap is hard: at the first byte beyond `maxBytes` parsing stops and the 422 goes out at
 * once; the rest of a body declared larger than twice the cap is never read (`Connection: close`),
 * a smaller overshoot is drained and dropped so naive clients can read the answer. A body that is not multipart has no file: 422
 * `missing`, as FastAPI answers for an absent `UploadFile`.
 */
export function readUpload(req: Request, res: Response, mapping: UploadMapping): Promise<UploadedFileVariable> {
  const loc = ['body', mapping.field];
  const missing = () => new ValidationError([{ type: 'missing', loc, msg: 'Field required', input: null }]);
  let parser: busboy.Busboy;
  try {
    // busboy's limit fires on reaching fileSize, so one byte of headroom lets a file of exactly maxBytes through.
    parser = busboy({ headers: req.headers, limits: { fileSize: mapping.maxBytes + 1, files: 4, fields: 16, parts: 32, fieldSize: 64 * 1024 } });
  } catch {
    // Not multipart (JSON, text, no Content-Type): there is no file to read. Do not drain an unread body.
    if (!req.complete) res.setHeader('Connection', 'close');
    return Promise.reject(missing());
  }

  return new Promise<UploadedFileVariable>((resolve, reject) => {
    let settled = false;
    let file: { filename: string | null; contentType: string | null; chunks: Buffer[] } | null = null;
    let textValue: string | undefined;

    const stop = (error: Error) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      // A body only a little over the cap is read to its end and dropped (node does that once the
      // answer is sent), so a client that writes its whole body before reading still gets the 422
      // instead of a broken pipe. A larger one is not read any further: the connection closes.
      const declared = Number(req.headers['content-length']);
      if (!req.complete && !(declared <= mapping.maxBytes * 2)) {
        req.pause();
        res.setHeader('Connection', 'close');
      } else {
        req.resume();
      }
      reject(error);
    };

    parser.on('file', (name, stream, info) => {
      // A truncated body destroys the part's stream with the parser's own error, which is handled below.
      stream.on('error', () => undefined);
      // Other file parts are read and dropped: they still count against busboy's part limits.
      if (name !== mapping.field || file) return void stream.resume();
      const current = { filename: info.filename ?? null, contentType: info.mimeType ?? null, chunks: [] as Buffer[] };
      file = current;
      stream.on('data', (chunk: Buffer) => current.chunks.push(chunk));
      stream.on('limit', () => stop(new ValidationError([valueIssue(loc, `${mapping.field} must be at most ${mapping.maxBytes} bytes`, current.filename)])));
    });
    parser.on('field', (name, value) => {
      if (name === mapping.field && textValue === undefined) textValue = value;
    });
    parser.on('error', (error: Error) => stop(new ValidationError([valueIssue(['body'], `the multipart body is malformed: ${error.message}`, null)])));
    parser.on('close', () => {
      if (settled) return;
      settled = true;
      if (file) resolve({ filename: file.filename, contentType: file.contentType, base64: Buffer.concat(file.chunks).toString('base64') });
      else if (textValue !== undefined) reject(new ValidationError([valueIssue(loc, `${mapping.field} must be a file part (with a filename), not a text field`, textValue)]));
      else reject(missing());
    });
    // A client that goes away mid-upload: nothing to answer, but the promise must still settle.
    req.on('error', (error) => stop(error));
    req.on('aborted', () => stop(new Error('client aborted the upload')));
    req.pipe(parser);
  });
}
