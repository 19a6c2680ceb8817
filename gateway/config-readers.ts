/** The readers loadConfig composes: typed settings with bounds, and the blocks of related settings. */
import type { PlumbingPiece } from '../platform/speed/speed-plumbing';

/** What the edge grants before it knows who is calling (docs/operations.md, "The edge"). */
export interface EdgeSettings {
  /** Largest body of an anonymous route (a lead webhook), read only after the address's budget (PUBLIC_BODY_LIMIT_BYTES). */
  publicBodyLimitBytes: number;
  /** Requests for public documents (`/openapi.json`, `/docs`, GraphiQL, console) per address and window (PUBLIC_DOCUMENTS_PER_WINDOW); null: ten times the failed-authentication budget. */
  publicDocumentsPerWindow: number | null;
  /** Time a client has to send a request's headers (HTTP_HEADERS_TIMEOUT_SECONDS). */
  headersTimeoutMs: number;
  /** Time a client has to send a whole request, body included; answers (event streams) are not bounded by it (HTTP_REQUEST_TIMEOUT_SECONDS). */
  requestTimeoutMs: number;
  /** Open connections one client address may hold; 0: no cap (MAX_CONNECTIONS_PER_ADDRESS). */
  maxConnectionsPerAddress: number;
  /** How long an idle connection is kept for its next request (HTTP_KEEP_ALIVE_SECONDS). */
  keepAliveTimeoutMs: number;
}

/** What one GraphQL operation may ask for; beyond any of these it is refused before it runs. */
export interface GraphQLLimits {
  /** Nesting of fields (GRAPHQL_MAX_DEPTH). */
  maxDepth: number;
  /** Aliased fields in the whole operation (GRAPHQL_MAX_ALIASES). */
  maxAliases: number;
  /** Lexical tokens of the document, checked while parsing (GRAPHQL_MAX_TOKENS). */
  maxTokens: number;
  /** Directives in the whole operation (GRAPHQL_MAX_DIRECTIVES). */
  maxDirectives: number;
  /** GraphQL Armor's cost score: objects 2, scalars 1, times 1.5 per level of nesting (GRAPHQL_MAX_COST). */
  maxCost: number;
  /** List fields nested along one path; each multiplies the answer by its length (GRAPHQL_MAX_LIST_DEPTH). */
  maxListDepth: number;
  /** Largest JSON answer of `/graphql`; a larger one is replaced by an error (GRAPHQL_MAX_RESPONSE_BYTES). */
  maxResponseBytes: number;
  /** Subscriptions one tenant may hold open in one process, graphql-sse and graphql-ws together; also its graphql-ws connections (GRAPHQL_MAX_STREAMS_PER_TENANT). */
  maxStreamsPerTenant: number;
  /** Whether `__schema` / `__type` are answered (GRAPHQL_INTROSPECTION). */
  introspection: boolean;
  /** Whether validation errors say `Did you mean ...` (GRAPHQL_FIELD_SUGGESTIONS). */
  fieldSuggestions: boolean;
}

/** Reads one whole-number setting within bounds (see `intSetting`). */
export type IntReader = ReturnType<typeof intSetting>;
/** Reads one on/off setting (see `boolSetting`). */
export type BoolReader = ReturnType<typeof boolSetting>;

/** Reads a whole-number setting; a bad value is added to `problems` and the fallback used, so every problem is reported at once. */
export function intSetting(env: NodeJS.ProcessEnv, problems: string[]) {
  return (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
}

/** Reads an on/off setting (`1`/`0`, `true`/`false`, `on`/`off`); a bad value is added to `problems` and the fallback used. */
export function boolSetting(env: NodeJS.ProcessEnv, problems: string[]) {
  return (name: string, fallback: boolean): boolean => {
    const raw = env[name]?.trim().toLowerCase();
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'on'].includes(raw)) return true;
    if (['0', 'false', 'off'].includes(raw)) return false;
    problems.push(`${name} must be 1 or 0 (also true/false, on/off; got "${env[name]}")`);
    return fallback;
  };
}

/**
 * Switches that were once settings of their own and are now pieces of SPEED_PLUMBING. Set, they
 * stop the start: ignored, an operator's `REST_DIRECT=0` would silently leave the piece on.
 */
const RETIRED_SWITCHES: Record<string, PlumbingPiece> = { GRAPHQL_DEDUP: 'inflight-dedup', REST_DIRECT: 'rest-direct', REST_COMPILED: 'rest-compiled' };

/** Adds a problem for each retired switch set in `env`, naming the SPEED_PLUMBING piece that replaced it. */
export function reportRetiredSwitches(env: NodeJS.ProcessEnv, problems: string[]): void {
  for (const [name, piece] of Object.entries(RETIRED_SWITCHES)) {
    if (env[name] === undefined || env[name]!.trim() === '') continue;
    problems.push(`${name} is gone: use SPEED_PLUMBING=-${piece} to turn ${piece} off (it is on by default), and unset ${name}`);
  }
}

/** The edge's block of settings (issue 31: nothing is read before it is allowed, anonymous traffic has a budget). */
export function readEdgeSettings(int: IntReader): EdgeSettings {
  const headersSeconds = int('HTTP_HEADERS_TIMEOUT_SECONDS', 10, 1, 300);
  return {
    publicBodyLimitBytes: int('PUBLIC_BODY_LIMIT_BYTES', 32 * 1024, 1024, 1024 * 1024),
    publicDocumentsPerWindow: int('PUBLIC_DOCUMENTS_PER_WINDOW', 0, 0, 10_000_000) || null,
    headersTimeoutMs: headersSeconds * 1000,
    // Node requires the headers' timeout to be the shorter one.
    requestTimeoutMs: Math.max(headersSeconds, int('HTTP_REQUEST_TIMEOUT_SECONDS', 60, 1, 3_600)) * 1000,
    maxConnectionsPerAddress: int('MAX_CONNECTIONS_PER_ADDRESS', 512, 0, 1_000_000),
    // Longer than a load balancer's idle timeout (HAProxy's, AWS's 60 s), so the balancer closes an
    // idle connection first and never sends a request down one the gateway is closing (node's 5 s would).
    keepAliveTimeoutMs: int('HTTP_KEEP_ALIVE_SECONDS', 65, 1, 3_600) * 1000,
  };
}

/** The GraphQL operation limits (docs/operations.md, Configuration reference); introspection and suggestions default on in development only. */
export function readGraphQLLimits(int: IntReader, bool: BoolReader, development: boolean): GraphQLLimits {
  return {
    maxDepth: int('GRAPHQL_MAX_DEPTH', 10, 2, 100),
    maxAliases: int('GRAPHQL_MAX_ALIASES', 15, 0, 1_000),
    maxTokens: int('GRAPHQL_MAX_TOKENS', 1_000, 50, 100_000),
    maxDirectives: int('GRAPHQL_MAX_DIRECTIVES', 50, 0, 1_000),
    maxCost: int('GRAPHQL_MAX_COST', 5_000, 10, 10_000_000),
    maxListDepth: int('GRAPHQL_MAX_LIST_DEPTH', 3, 1, 100),
    maxResponseBytes: int('GRAPHQL_MAX_RESPONSE_BYTES', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    maxStreamsPerTenant: int('GRAPHQL_MAX_STREAMS_PER_TENANT', 100, 1, 100_000),
    introspection: bool('GRAPHQL_INTROSPECTION', development),
    fieldSuggestions: bool('GRAPHQL_FIELD_SUGGESTIONS', development),
  };
}
