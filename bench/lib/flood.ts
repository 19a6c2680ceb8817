import { count } from './victim-stats';

/** One request of a flood or of the victim: sends it (abortable) and says how it was answered. */
export type Send = (signal?: AbortSignal) => Promise<Response>;

/** A running flood: stop it and get what its requests were answered. */
export interface RunningFlood {
  /** Stops sending and waits for the requests in flight, so the server is idle again when it resolves. */
  stop(): Promise<Record<string, number>>;
}

/**
 * How an answer is tallied: its status, and for a GraphQL answer with errors their codes
 * (a 200 whose fields failed, e.g. `200 BAD_USER_INPUT`, is not a served request).
 */
export function classify(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { errors?: { extensions?: { code?: string } }[] };
    if (Array.isArray(body?.errors) && body.errors.length) return `${status} ${[...new Set(body.errors.map((e) => e.extensions?.code ?? 'error'))].sort().join('+')}`;
  } catch {
    // Not JSON: the status says it all.
  }
  return String(status);
}

/** Pause after a refused answer: an attacker retries at once, but a loop spinning on instant 429s would measure the benchmark's own client. */
const REFUSED_PAUSE_MS = 100;

/** `concurrency` loops sending one request after another until stopped; after a refused answer (not a plain 200) a loop pauses REFUSED_PAUSE_MS. */
export function startFlood(send: Send, concurrency: number): RunningFlood {
  let running = true;
  const tally: Record<string, number> = {};
  const loops = Array.from({ length: concurrency }, async () => {
    while (running) {
      try {
        const res = await send();
        const kind = classify(res.status, await res.text());
        count(tally, kind);
        if (kind !== '200') await new Promise((r) => setTimeout(r, REFUSED_PAUSE_MS));
      } catch (error) {
        count(tally, `network error: ${(error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message}`);
        await new Promise((r) => setTimeout(r, REFUSED_PAUSE_MS));
      }
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return tally;
    },
  };
}

/** What the victim's loop measured in one round. */
export interface VictimRun {
  samples: number[];
  /** Requests given up after the bound: counted in `samples` at the bound. */
  censored: number;
  failures: Record<string, number>;
}

/**
 * The victim's closed loop: one request after another for `seconds` (at least one), timing each
 * 2xx. A request unanswered after `boundMs` is given up and counts at the bound (a lower limit),
 * so one round cannot last as long as a starved server makes it.
 */
export async function victimLoop(send: Send, seconds: number, boundMs: number): Promise<VictimRun> {
  const run: VictimRun = { samples: [], censored: 0, failures: {} };
  const until = performance.now() + seconds * 1000;
  let retried = false;
  do {
    const started = performance.now();
    try {
      const res = await send(AbortSignal.timeout(boundMs));
      const text = await res.text();
      const kind = classify(res.status, text);
      if (kind === '200') run.samples.push(performance.now() - started);
      else count(run.failures, kind);
      retried = false;
    } catch (error) {
      // A kept-alive connection the server closed as the request went out (node's 5 s idle
      // timeout, met after a drain): sent again once on a new connection, unmeasured.
      if (!retried && staleConnection(error)) {
        retried = true;
        continue;
      }
      if ((error as Error).name !== 'TimeoutError') throw error;
      run.samples.push(boundMs);
      run.censored += 1;
    }
  } while (performance.now() < until || retried);
  return run;
}

/** Whether fetch failed because the socket closed under it, before any answer. */
function staleConnection(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } })?.cause?.code;
  return error instanceof TypeError && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE');
}
