import { createDemoTenant } from '../subgraphs/analytics/revenue-kit';

const LINES = `query($after: String, $before: String, $first: Int, $last: Int, $sortBy: RevenueBreakdownSortField!, $sortDirection: SortDirection!) {
  revenueBreakdown(timezone: "UTC", sortBy: $sortBy, sortDirection: $sortDirection, first: $first, after: $after, last: $last, before: $before) {
    totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } nodes { id }
  }
}`;

describe(`revenue lines as a connection (${process.env.E2E_MODE} mode)`, () => {
  it('walks every line once by cursor, forwards and backwards, whatever the sort', async () => {
    const demo = await createDemoTenant('Connection Revenue Clinic');
    // The time to the microsecond; an amount; a nullable name (NULLs last either way).
    for (const [sortBy, sortDirection] of [['CREATED_DATE', 'DESC'], ['NET_AMOUNT', 'ASC'], ['PROVIDER', 'DESC']]) {
      {
        const forwards: string[] = [];
        let total = 0;
        for (let after: string | null = null, more = true; more; ) {
          const res = await demo.graphql(LINES, { first: 37, after, sortBy, sortDirection });
          expect(res.body.errors).toBeUndefined();
          const lines = res.body.data.revenueBreakdown;
          total = lines.totalCount;
          forwards.push(...lines.nodes.map((n: { id: string }) => n.id));
          ({ hasNextPage: more, endCursor: after } = lines.pageInfo);
        }
        expect(forwards).toHaveLength(total);
        expect(new Set(forwards).size).toBe(total);
        const backwards: string[] = [];
        for (let before: string | null = null, more = true; more; ) {
          const res = await demo.graphql(LINES, { last: 41, before, sortBy, sortDirection });
          expect(res.body.errors).toBeUndefined();
          const lines = res.body.data.revenueBreakdown;
          backwards.unshift(...lines.nodes.map((n: { id: string }) => n.id));
          ({ hasPreviousPage: more, startCursor: before } = lines.pageInfo);
        }
        expect(backwards).toEqual(forwards);
      }
    }
  // Three sorts walked both ways page by page: over 30 s on a loaded two-core machine (CI beside stress-ng).
  }, 120_000);
});
