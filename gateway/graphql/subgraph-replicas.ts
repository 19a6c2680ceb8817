import { GraphQLError } from 'graphql';

/** How long a replica that could not be reached is tried last, after every other. */
const SIT_OUT_MS = 5_000;

/** Error codes of a connection that never carried an answer: nothing reached the subgraph's resolvers, or nothing came back. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'UND_ERR_SOCKET']);

/**
 * Whether a subgraph fetch failed for want of a replica: the connection was refused, reset or
 * timed out before an answer came (`TimeoutError`, from the fetch's own time limit), or the
 * replica answered 502/503/504 as a proxy or a draining server does. A client that went away, or
 * any answer of the subgraph's own, is not.
 */
export function isUnreachable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && typeof cause === 'object' && depth < 4; cause = (cause as { cause?: unknown }).cause, depth++) {
    if (cause instanceof ReplicaRefusedError) return true;
    if ((cause as { name?: unknown }).name === 'TimeoutError') return true;
    if (UNREACHABLE_CODES.has(String((cause as { code?: unknown }).code))) return true;
  }
  return false;
}

/** A replica answered 502, 503 or 504: it is not serving, so a query may go to another. */
export class ReplicaRefusedError extends GraphQLError {
  constructor(readonly status: number) {
    super(`subgraph replica answered ${status}`);
  }
}

/**
 * One subgraph's replicas (SUBGRAPH_<NAME>_URL), handed out round-robin. A replica that could not
 * be reached sits out for a few seconds: it is tried after the others, so while one replica is
 * down most fetches (mutations too) go straight to a live one, and it is back in turn once it
 * answers again.
 */
export class SubgraphReplicas {
  private turn = 0;
  private readonly downUntil = new Map<string, number>();

  constructor(readonly urls: readonly string[]) {
    if (urls.length === 0) throw new Error('a subgraph needs at least one URL');
  }

  /** The replicas in the order one fetch tries them: the next in turn first, those sitting out last. */
  order(): string[] {
    const start = this.turn++ % this.urls.length;
    if (this.turn >= Number.MAX_SAFE_INTEGER) this.turn = 0;
    const rotated = [...this.urls.slice(start), ...this.urls.slice(0, start)];
    if (this.downUntil.size === 0) return rotated;
    const now = Date.now();
    const out = (url: string) => (this.downUntil.get(url) ?? 0) > now;
    return [...rotated.filter((url) => !out(url)), ...rotated.filter(out)];
  }

  /** The replica could not be reached: try it last for a while. */
  down(url: string): void {
    this.downUntil.set(url, Date.now() + SIT_OUT_MS);
  }

  /** The replica answered. */
  up(url: string): void {
    if (this.downUntil.size) this.downUntil.delete(url);
  }
}
