import { Router, type NextFunction, type Request, type Response } from 'express';
import { notFound } from '../../rest-bridge/http-errors';
import { isUuid } from '../../platform/ids';
import type { TenantAccess } from '../../subgraphs/tenant';
import { routeNamed } from './access-log';
import { AssetCache } from './asset-cache';
import { limitAnonymous } from './auth';
import type { RateLimits } from './rate-limit';
import { namesEtag } from './public-document';

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
            'The bytes as resized (to fit inside 1024x1024) and re-encoded at upload (metadata stripped; at most 2 MiB), with the decoded type (image/png, image/jpeg, image/webp or image/gif), `Cache-Control: public, max-age=31536000, immutable`, `ETag` (the SHA-256) and `X-Content-Type-Options: nosniff`',
          content: { 'image/*': { schema: { type: 'string', format: 'binary' } } },
        },
        304: { description: '`If-None-Match` names this content' },
        404: { description: 'Unknown or malformed id', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorDetail' } } } },
        429: { description: "The client address's anonymous budget (`RATE_LIMIT_AUTH_FAILURES_PER_WINDOW`) is spent", content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorDetail' } } } },
      },
    },
  },
};

/** One year: the longest max-age caches honour, right for content that never changes under its URL. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Bytes of logos kept in memory per process: sixteen logos at the 2 MiB cap, hundreds of usual
 * ones (tens of KB), so the logos patients' pages show are served without a database read.
 */
const CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Database reads of assets at once per process. Reading a 2 MiB bytea costs the driver about
 * 16-24 MiB for a moment (hex text, growing protocol buffers; measured), so a cold burst holds
 * two of those, not one per request; the others wait and are then served from the cache.
 */
const READS_AT_ONCE = 2;

/**
 * `GET /assets/{id}`: uploaded logos, public and without headers (they appear on patient-facing
 * pages and receipts). Mounted before authentication, each request counted against the client
 * address's anonymous budget before anything is read. An asset never changes once stored, so it
 * is served as immutable with its SHA-256 as a strong ETag, from a cache bounded by its total
 * bytes (asset-cache.ts). Unknown or malformed ids are the app's JSON 404 of unknown routes,
 * already counted here.
 */
export function assetsRouter(tenants: TenantAccess, limits: RateLimits): Router {
  const router = Router();
  const cache = new AssetCache((id) => tenants.publicAsset(id), CACHE_BYTES, READS_AT_ONCE);
  // Named first, so a 429 is logged under its route too.
  router.get('/assets/:assetId', routeNamed('/assets/{asset_id}'), limitAnonymous(limits), async (req: Request, res: Response, next: NextFunction) => {
    const id = req.params.assetId as string;
    if (!isUuid(id)) return notFound(req, res, next);
    const asset = await cache.get(id.toLowerCase());
    if (!asset) return notFound(req, res, next);
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
    if (namesEtag(req.get('if-none-match'), `"${asset.sha256}"`)) return void res.status(304).end();
    res.end(asset.data);
  });
  return router;
}
