import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { HttpRefusal } from '../../rest-bridge/http-errors';

/** A path of the platform's own (not a contract route) and the methods it serves. */
export interface PlatformPath {
  /** The whole path, as a pattern. */
  path: RegExp;
  /** Methods served, HEAD included wherever GET is. */
  methods: string[];
}

/** The 405 of a known path asked with a method it does not serve, with the `Allow` that lists the ones it does (RFC 9110 15.5.6). */
export function methodNotAllowed(res: Response, methods: string[]): HttpRefusal {
  res.setHeader('Allow', methods.join(', '));
  return new HttpRefusal(405, 'Method Not Allowed');
}

/**
 * Answers a method a platform path does not serve (OPTIONS and PUT on `/graphql`, POST on `/docs`)
 * with the JSON 405 and an accurate `Allow`, counted against the client address's budget (`charge`)
 * like any request that is nobody's: express's routers would answer OPTIONS themselves (200,
 * plain text, an `Allow` naming only their own GET), and other methods fell through to a 404,
 * or to a library's empty one. Contract paths are not listed: a method the contract does not give
 * a path is the 404 of an unknown route (docs/decisions.md, "A method a path does not serve").
 */
export function refuseOtherMethods(paths: PlatformPath[], charge: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const known = paths.find((entry) => entry.path.test(req.path));
    if (!known || known.methods.includes(req.method)) return next();
    charge(req, res, (error?: unknown) => next(error ?? methodNotAllowed(res, known.methods)));
  };
}
