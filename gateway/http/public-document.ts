import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Cache-Control of a file whose URL changes with its content (`?v=` of its package). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Cache-Control of a page or document kept under a fixed URL: a cache keeps it, and asks (ETag, 304) before each use. */
export const REVALIDATE = 'no-cache';

/** The content types of the files served as public documents, by extension. */
export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

type Encoding = 'br' | 'gzip' | 'identity';

/** One encoding of a document: its bytes and the strong validator that names exactly them. */
interface Representation {
  body: Buffer;
  etag: string;
}

/**
 * A document served as it is to anyone (`/openapi.json`, the pages and files of `/docs`, GraphiQL
 * and the console): read once, hashed once, compressed once per encoding off the event loop
 * (zlib's thread pool), then answered from memory with a strong ETag, `Cache-Control` and
 * `Vary: Accept-Encoding`; a matching `If-None-Match` is a 304 with no body. Nothing is computed
 * per request but the choice of encoding, so no volume of these requests holds the event loop.
 */
export class PublicDocument {
  private readonly encodings = new Map<Encoding, Promise<Representation>>();

  /** `source` gives the bytes: a string or buffer prepared at start-up, or a file read on first use. */
  constructor(
    private readonly source: string | Buffer | (() => Promise<Buffer>),
    readonly contentType: string,
    readonly cacheControl: string,
  ) {}

  /** A file served as it is, read on its first request (no start-up cost for files nobody asks for). */
  static file(path: string, contentType: string, cacheControl: string): PublicDocument {
    return new PublicDocument(() => readFile(path), contentType, cacheControl);
  }

  /** Answers a GET or HEAD with the representation the client accepts best. */
  async send(req: Request, res: Response): Promise<void> {
    const encoding = chooseEncoding(req);
    const { body, etag } = await this.representation(encoding);
    res.vary('Accept-Encoding');
    res.setHeader('Cache-Control', this.cacheControl);
    res.setHeader('ETag', etag);
    if (namesEtag(req.get('if-none-match'), etag)) return void res.status(304).end();
    res.setHeader('Content-Type', this.contentType);
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', String(body.length));
    // Node sends no body for a HEAD request, whatever `end` is given.
    res.status(200).end(body);
  }

  private representation(encoding: Encoding): Promise<Representation> {
    let prepared = this.encodings.get(encoding);
    if (!prepared) {
      prepared = this.prepare(encoding);
      // A failure (a file gone) is not kept: the next request tries again.
      prepared.catch(() => this.encodings.delete(encoding));
      this.encodings.set(encoding, prepared);
    }
    return prepared;
  }

  private async prepare(encoding: Encoding): Promise<Representation> {
    if (encoding === 'identity') {
      const body = typeof this.source === 'function' ? await this.source() : Buffer.from(this.source);
      return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
    }
    const identity = await this.representation('identity');
    // Brotli 6: within 2% of 9's size on Swagger UI's 1.7 MB bundle in about half the time, which the first request waits for.
    const body =
      encoding === 'gzip'
        ? await gzipAsync(identity.body, { level: 9 })
        : await brotliAsync(identity.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: identity.body.length } });
    // Each encoding is a representation of its own (RFC 9110 8.8.3): its own strong validator.
    return { body, etag: `${identity.etag.slice(0, -1)}-${encoding}"` };
  }
}

/**
 * Brotli where the client takes it, else gzip, else the bytes as they are: the smallest it accepts,
 * whatever order it lists them in (browsers list gzip first). No `Accept-Encoding` at all is taken
 * as identity, as curl and most scripts mean it.
 */
function chooseEncoding(req: Request): Encoding {
  if (!req.get('accept-encoding')) return 'identity';
  if (req.acceptsEncodings('br') === 'br') return 'br';
  return req.acceptsEncodings('gzip') === 'gzip' ? 'gzip' : 'identity';
}

/**
 * True when `If-None-Match` names `etag` (weak comparison, as RFC 9110 13.1.2 asks), or is `*`.
 * Checked by hand rather than with express's `req.fresh`: that one ignores the header whenever the
 * request says `Cache-Control: no-cache`, which fetch adds to every conditional request.
 */
export function namesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value.replace(/^W\//, '') === etag;
  });
}

/** An express handler serving `document`; a failure to read it goes to the error handler (a JSON 500). */
export function serveDocument(document: PublicDocument) {
  return (req: Request, res: Response, next: NextFunction): void => void document.send(req, res).catch(next);
}

/** Where a document's bytes come from: text made at start-up, or a file read on first use. */
export type DocumentSource = string | Buffer | { file: string };

/** A handler for one public document, prepared on first use and then answered from memory (what `DocumentServer`s are). */
export function documentHandler(source: DocumentSource, contentType: string, cacheControl: string) {
  const document = typeof source === 'object' && 'file' in source ? PublicDocument.file(source.file, contentType, cacheControl) : new PublicDocument(source, contentType, cacheControl);
  return serveDocument(document);
}
