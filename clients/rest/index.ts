/**
 * The REST SDK: a typed client of the legacy REST surface, generated from the OpenAPI document the
 * server serves at `/openapi.json` (types in ./schema.d.ts, by `npm run clients:generate`).
 *
 * ```ts
 * import { createRestClient, multipart } from './clients/rest';
 *
 * const api = createRestClient({ baseUrl: 'https://api.example.com', tenant: tenantId, apiKey });
 * const { data, error, response } = await api.GET('/analytics/widgets/{widget_id}', { params: { path: { widget_id: id } } });
 * if (error) throw new Error(`${response.status}: ${JSON.stringify(error.detail)}`);
 * await api.PUT('/analytics/widgets/{widget_id}', { params: { path: { widget_id: id } }, body: { name: 'Revenue' } });
 * await api.POST('/tenant/upload-logo', { body: { file: pngBlob }, bodySerializer: multipart });
 * ```
 *
 * Paths, parameters, bodies and responses (errors included, per status) are typed by the document;
 * every call carries the `TENANT` and `API-KEY` headers. test/e2e/rest-sdk.test.ts calls every
 * operation through it against a running server.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema';

export type { components, operations, paths } from './schema';

/** Where the API is and whose it is: the tenant's id and one of its API keys. */
export interface RestClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  baseUrl: string;
  tenant: string;
  apiKey: string;
}

/** The typed REST client (openapi-fetch's `GET`, `POST`, `PUT`, `DELETE`, ... by path). */
export type RestClient = Client<paths>;

/** A client of the REST surface at `baseUrl` on behalf of `tenant`, authenticated by `apiKey`. */
export function createRestClient({ baseUrl, tenant, apiKey, headers, ...rest }: RestClientOptions): RestClient {
  return createClient<paths>({ ...rest, baseUrl, headers: { ...headersRecord(headers), TENANT: tenant, 'API-KEY': apiKey } });
}

/** A body as multipart/form-data, one part per field (a Blob as a file part): the upload routes' `bodySerializer`. */
export function multipart(body: Record<string, Blob | string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) form.append(name, value);
  return form;
}

function headersRecord(headers: ClientOptions['headers']): Record<string, string> {
  if (!headers) return {};
  const out: Record<string, string> = {};
  new Headers(headers as ConstructorParameters<typeof Headers>[0]).forEach((value, name) => (out[name] = value));
  return out;
}
