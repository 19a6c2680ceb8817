import { Router, type NextFunction, type Request, type Response } from 'express';
import { isUuid } from '../../subgraphs/common/ids';
import type { TenantAccess } from '../../subgraphs/tenant';

/** The OpenAPI path item of `GET /assets/{asset_id}`: not a bridge route, so it is written here by hand. */
export const ASSET_OPENAPI_PATHS = {
  '/assets/{asset_id}': {
    get: {
      operationId: 'getAsset',
      summary: 'An uploaded logo, public (the URLs the tenant routes return)',
      tags: ['Tenant'],
      security: [],
      parameters: [{ name: 'asset_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
      responses: {
        200: {
          description:
            'The bytes as re-encoded at upload (metadata stripped), with the decoded type (image/png, image/jpeg, image/webp or image/gif), `Cache-Control: public, max-age=31536000, immutable`, `ETag` (the SHA-256) and `X-Content-Type-Options: nosniff`',
          content: { 'image/*': { schema: { type: 'string', format: 'binary' } } },
        },
        304: { description: '`If-None-Match` names this content' },
        404: { description: 'Unknown or malformed id', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorDetail' } } } },
      },
    },
  },
};

/** One year: the longest max-age caches honour, right for content that never changes under its URL. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * True when `If-None-Match` names this content. Checked by hand rather than with `req.fresh`:
 * that one ignores the header whenever the request says `Cache-Control: no-cache`, which fetch
 * adds to every conditional request, and content-addressed bytes are the same whatever a cache says.
 */
function matchesEtag(header: string | undefined, sha256: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value.replace(/^W\//, '') === `"${sha256}"`;
  });
}

/**
 * `GET /assets/{id}`: uploaded logos, public and without headers (they appear on patient-facing
 * pages and receipts). Mounted before authentication. An asset never changes once stored, so it
 * is served as immutable with its SHA-256 as ETag. Unknown or malformed ids fall through to the
 * app's JSON 404, which counts against the client address like any unknown route.
 */
export function assetsRouter(tenants: TenantAccess): Router {
  const router = Router();
  router.get('/assets/:assetId', async (req: Request, res: Response, next: NextFunction) => {
    res.locals.route = '/assets/{asset_id}';
    const id = req.params.assetId as string;
    if (!isUuid(id)) return next();
    const asset = await tenants.publicAsset(id.toLowerCase());
    if (!asset) return next();
    res.status(200).set({
      'Content-Type': asset.contentType,
      'Content-Length': String(asset.byteSize),
      'Cache-Control': IMMUTABLE,
      ETag: `"${asset.sha256}"`,
      // The type is the one the bytes were decoded and re-encoded as at upload; browsers must not second-guess it.
      'X-Content-Type-Options': 'nosniff',
      // helmet's same-origin default would stop other sites (a clinic's booking page) from showing the logo.
      'Cross-Origin-Resource-Policy': 'cross-origin',
    });
    if (matchesEtag(req.get('if-none-match'), asset.sha256)) return void res.status(304).end();
    res.end(asset.data);
  });
  return router;
}
