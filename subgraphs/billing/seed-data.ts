/** Demo catalogue of a physiotherapy practice: invented items and prices in integer cents. */

/** One thing the demo clinic sells; `weight` is its share of sales. */
export interface CatalogueItem {
  category: string;
  type: 'service' | 'product';
  name: string;
  cents: number;
  weight: number;
  /** Sold at virtual (telehealth) locations only; others are sold at physical ones only. */
  virtual?: boolean;
}

/** Services and products (charge items). */
export const CATALOGUE: readonly CatalogueItem[] = [
  { category: 'Physical therapy', type: 'service', name: 'Initial evaluation', cents: 18_000, weight: 10 },
  { category: 'Physical therapy', type: 'service', name: 'Follow-up visit', cents: 12_000, weight: 30 },
  { category: 'Physical therapy', type: 'service', name: 'Manual therapy session', cents: 11_000, weight: 12 },
  { category: 'Occupational therapy', type: 'service', name: 'OT session', cents: 13_000, weight: 8 },
  { category: 'Chiropractic', type: 'service', name: 'Adjustment', cents: 8_500, weight: 9 },
  { category: 'Massage therapy', type: 'service', name: '60-minute massage', cents: 9_500, weight: 8 },
  { category: 'Massage therapy', type: 'service', name: '30-minute massage', cents: 5_500, weight: 5 },
  { category: 'Retail', type: 'product', name: 'Resistance band set', cents: 2_400, weight: 4 },
  { category: 'Retail', type: 'product', name: 'Foam roller', cents: 3_500, weight: 3 },
  { category: 'Retail', type: 'product', name: 'Kinesiology tape', cents: 1_500, weight: 4 },
  { category: 'Retail', type: 'product', name: 'Cold pack', cents: 1_800, weight: 2 },
  { category: 'Orthotics', type: 'product', name: 'Custom orthotics', cents: 45_000, weight: 1 },
  { category: 'Telehealth', type: 'service', name: 'Video follow-up', cents: 9_000, weight: 10, virtual: true },
  { category: 'Telehealth', type: 'service', name: 'Video evaluation', cents: 14_000, weight: 3, virtual: true },
];

/** Packages of sessions (sold packages). */
export const PACKAGES = [
  { name: '5-visit physio pack', cents: 55_000, sessions: 5, weight: 5 },
  { name: '10-visit physio pack', cents: 100_000, sessions: 10, weight: 3 },
  { name: 'Massage 6-pack', cents: 51_000, sessions: 6, weight: 2 },
] as const;

/** How sales are paid, with weights; values as stored in payment_medium. */
export const PAYMENT_MEDIUMS: readonly [string, number][] = [
  ['card', 55], ['insurance', 15], ['wallet_pay', 10], ['cash', 8], ['ach', 5], ['gift_card', 4], ['check', 2], ['other', 1],
];

/** Membership plans of the demo members. */
export const PLANS = [
  { planName: 'Wellness monthly', priceCents: 4_900, interval: 'MONTH' },
  { planName: 'Active recovery monthly', priceCents: 8_900, interval: 'MONTH' },
  { planName: 'Wellness yearly', priceCents: 49_000, interval: 'YEAR' },
] as const;

/** A small deterministic PRNG (mulberry32): the same demo data on every seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Picks from weighted entries with `random` in [0, 1). */
export function weighted<T>(entries: readonly T[], weightOf: (entry: T) => number, random: number): T {
  const total = entries.reduce((sum, e) => sum + weightOf(e), 0);
  let point = random * total;
  for (const entry of entries) {
    point -= weightOf(entry);
    if (point < 0) return entry;
  }
  return entries[entries.length - 1];
}
