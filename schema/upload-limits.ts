/**
 * Largest logo accepted, in bytes (2 MiB): enough for any sensible logo, small enough to hold in
 * memory and in one row. A limit of the API itself, so it lives with its vocabulary: the REST
 * bridge stops reading a multipart body at this size, and the tenant subgraph enforces it again
 * for GraphQL callers. A stored logo (resized and re-encoded) is never larger either, so the
 * public asset route serves at most this many bytes per request.
 */
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
