// REST's revenue amount bounds (contract part 4.3) kept as the contract has them while the graph's are SafeInt cents (docs/api.md, Schema style).

/** min/max_net_amount as the contract types them on three endpoints: numbers (the graph's bounds are SafeInt cents). */
export const FLOAT_AMOUNTS = { min_net_amount: 'Float', max_net_amount: 'Float' } as const;
/** min/max_net_amount on revenue-breakdown-group-summaries: 32-bit integers, as the contract types them there. */
export const INT_AMOUNTS = { min_net_amount: 'Int', max_net_amount: 'Int' } as const;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
// `|| 0`: Math.ceil(-0.5) is -0, which should travel as a plain 0.
const clampSafe = (n: number) => Math.max(-MAX_SAFE, Math.min(MAX_SAFE, n)) || 0;

/**
 * REST's number bounds as the graph's whole cents, selecting the same lines: net_cents is a 32-bit
 * integer, so `net >= 12.5` is `net >= 13`, `net <= 12.5` is `net <= 12`, and a bound beyond the
 * safe range is one at its edge. Bounds in order with no whole cent between them (12.2 to 12.8)
 * selected nothing: they become an empty range in order, not the graph's max-below-min refusal.
 */
export function centsBounds(variables: Record<string, unknown>): Record<string, unknown> {
  const { minNetCents: min, maxNetCents: max } = variables;
  const out = { ...variables };
  if (typeof min === 'number') out.minNetCents = clampSafe(Math.ceil(min));
  if (typeof max === 'number') out.maxNetCents = clampSafe(Math.floor(max));
  if (typeof min === 'number' && typeof max === 'number' && max >= min && (out.maxNetCents as number) < (out.minNetCents as number)) {
    out.minNetCents = MAX_SAFE;
    out.maxNetCents = MAX_SAFE;
  }
  return out;
}
