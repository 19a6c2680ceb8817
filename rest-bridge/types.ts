/** HTTP methods the contract uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * How 422 elements are written for a route. `full` adds `input` (and `ctx` where the error type
 * has one), as FastAPI does; `basic` keeps only `loc`, `msg` and `type`, as the contract says of
 * payment method creation and member manual payment (contract part 7.2).
 */
export type ValidationStyle = 'full' | 'basic';

/** Where the JSON body goes: into one variable whole, and whether a body must be sent. */
export interface BodyMapping {
  /** The operation variable that receives the parsed JSON object. */
  variable: string;
  /** A missing or empty body is a 422 `missing` at `["body"]` when true; `{}` is used when false. */
  required: boolean;
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
  /** Lower-case header name -> operation variable name. */
  headerParams?: Record<string, string>;
  body?: BodyMapping;
  /** Success status; 204 sends no body. Default 200. */
  status?: number;
  /** Picks the response body out of the operation's `data`. */
  result: (data: Record<string, any>) => unknown;
  /** Default `full`. */
  validationStyle?: ValidationStyle;
  /** Honour the `Idempotency-Key` header: a retry with the same key and body replays the first response. */
  idempotent?: boolean;
  /** Human description of the success body for the OpenAPI document, when the selection alone says too little. */
  responseDescription?: string;
}
