/** HTTP methods the contract uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * How 422 elements are written for a route. `full` adds `input` (and `ctx` where the error type
 * has one), as FastAPI does; `basic` keeps only `loc`, `msg` and `type`, as the contract says of
 * payment method creation and member manual payment (contract part 7.2).
 */
export type ValidationStyle = 'full' | 'basic';

/** Where the JSON body goes: into one variable whole, or field by field into variables of their own. */
export type BodyMapping = WholeBodyMapping | BodyFieldsMapping;

/** The whole JSON object becomes one (input object) variable. */
export interface WholeBodyMapping {
  /** The operation variable that receives the parsed JSON object. */
  variable: string;
  /** A missing or empty body is a 422 `missing` at `["body"]` when true; `{}` is used when false. */
  required: boolean;
  /**
   * REST body field -> field of the variable's input object, where the graph renamed a field the
   * contract names (`startDate` -> `startsAt`): the body, its document and its 422s keep the
   * contract's name (body-rename.ts).
   */
  rename?: Record<string, string>;
}

/**
 * Named fields of the JSON object become variables of their own, so a mutation keeps the graph's
 * shape (plain arguments) instead of taking a REST body as an input type. A field not named is
 * `extra_forbidden`, as in a whole body; an absent field leaves its variable's default.
 */
export interface BodyFieldsMapping {
  /** JSON field name -> operation variable name. */
  fields: Record<string, string>;
  /** A missing or empty body is a 422 `missing` at `["body"]` when true; `{}` is used when false. */
  required: boolean;
}

/**
 * A multipart/form-data route (FastAPI's `UploadFile`): the file in form field `field` is read
 * with a hard size cap and handed to the operation variable `variable` as
 * `{filename, contentType, base64}` (an `UploadedFileInput`).
 */
export interface UploadMapping {
  /** Form field holding the file. */
  field: string;
  /** Operation variable that receives the file. */
  variable: string;
  /** Largest accepted file; reading stops (422) at the first byte beyond it. */
  maxBytes: number;
  /** What the file must be, for the OpenAPI document. */
  description?: string;
}

/**
 * A route answered as server-sent events (contract part 4.9): its document is a subscription,
 * `result` maps each event's `data` to one `data:` line, and these say how the stream ends badly.
 */
export interface StreamMapping {
  /** The event that ends a stream failing after it started; `message` is safe to show. */
  errorEvent: (message: string) => unknown;
}

/** A route that is going away (docs/api.md, "Versions and deprecation"): dates as `YYYY-MM-DD`, read as midnight UTC. */
export interface RouteDeprecation {
  /** The day the route became deprecated: sent as `Deprecation: @<unix seconds>` (RFC 9745). */
  since: string;
  /** The day after which it may stop answering: sent as `Sunset: <HTTP-date>` (RFC 8594). */
  sunset: string;
  /** What to use instead, or the announcement: sent as `Link: <url>; rel="deprecation"` (RFC 9745). */
  link?: string;
}

/** One documented REST endpoint: a GraphQL operation plus the mapping of HTTP to it and back. */
export interface RouteDefinition {
  method: HttpMethod;
  /** The contract's path, with `{name}` placeholders, e.g. `/analytics/widgets/{widget_id}`. */
  path: string;
  /** Stable OpenAPI operationId. */
  operationId: string;
  /** One line for the OpenAPI document. */
  summary: string;
  /** OpenAPI tag (the contract's functional group). */
  tag: string;
  /** GraphQL document holding exactly one operation; its variable types drive coercion. */
  document: string;
  /** Path placeholder name -> operation variable name. */
  pathParams?: Record<string, string>;
  /** Query parameter name (snake_case, as the contract) -> operation variable name. */
  queryParams?: Record<string, string>;
  /**
   * Query parameters the contract types otherwise than the graph argument they feed (REST kept when
   * the graph changed, e.g. money bounds that became SafeInt cents): REST name -> the scalar REST
   * validates and documents them as; `variables` turns the values into the arguments' type.
   */
  restScalars?: Record<string, 'Int' | 'Float'>;
  /** Rewrites the coerced variables before the operation runs (see `restScalars`). */
  variables?: (variables: Record<string, unknown>) => Record<string, unknown>;
  /** Lower-case header name -> operation variable name. */
  headerParams?: Record<string, string>;
  body?: BodyMapping;
  /** The request is multipart/form-data carrying one file (instead of a JSON body). */
  upload?: UploadMapping;
  /** Success status; 204 sends no body. Default 200. */
  status?: number;
  /** Picks the response body out of the operation's `data` (a paged route: its connection's `{nodes, totalCount}`). */
  result: (data: Record<string, any>) => unknown;
  /**
   * A list answered by page numbers over a graph connection (rest-bridge/page-list.ts): `page` and
   * `per_page` become `first: $perPage, after: $after`; the body is the page envelope, or (`items`)
   * the bare array where the contract wants one.
   */
  paged?: 'envelope' | 'items';
  /** Default `full`. */
  validationStyle?: ValidationStyle;
  /** Set for a subscription answered as `text/event-stream` (rest-bridge/stream.ts); `result` then maps each event. */
  stream?: StreamMapping;
  /** Honour the `Idempotency-Key` header: a retry with the same key and body replays the first response. */
  idempotent?: boolean;
  /**
   * `tenant` (default): TENANT + API-KEY required. `public`: no credentials (a secret in the path
   * stands in, e.g. a campaign's lead webhook); mounted before authentication and counted against
   * the client address's budget, and the operation runs with no tenant in its context.
   */
  auth?: 'tenant' | 'public';
  /**
   * A query asked before the body is read, with the path's variables alone (as its document names
   * them): its error answers the request instead of the route, the body unread; its success lets the
   * body be read and the route run (rest-bridge/admission.ts). For a secret in the path of a public
   * route, e.g. a lead webhook's key. Its success and its 404 are remembered for a few seconds per
   * process, so an admission must ask about something that, once unknown, stays unknown.
   */
  admission?: string;
  /** The outside service the route calls (`payment processor`): its outage answers 503 with Retry-After, documented in OpenAPI. */
  upstream?: string;
  /** Human description of the success body for the OpenAPI document, when the selection alone says too little. */
  responseDescription?: string;
  /**
   * The route is going away: its responses carry `Deprecation`, `Sunset` (and `Link` when given)
   * and its OpenAPI operation says `deprecated: true` (docs/api.md, "Versions and deprecation").
   */
  deprecated?: RouteDeprecation;
}
