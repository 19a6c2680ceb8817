/**
 * The part of Hive's `GatewayCLIConfig` used here, written out: importing its types pulls the DOM
 * library into the whole project's type check, which retypes `fetch` for every test.
 */
interface HiveHeaderConfig {
  propagateHeaders: { fromClientToSubgraphs(payload: { request: { headers: { get(name: string): string | null } } }): Record<string, string | null | undefined> };
}

/**
 * Hive Gateway's configuration file in the peer-gateway benchmark (bench/peer-gateway.ts, loaded by
 * its CLI with `-c`): its defaults, plus what our subgraph services demand of any gateway, the
 * shared secret and the caller's tenant (platform/context.ts, IDENTITY_HEADERS), so that
 * both gateways make the subgraphs do the same work. Hive keeps its own fetch deduplication on,
 * keyed by the subgraph request's headers and body, so tenants never share there either.
 */
export const gatewayConfig: HiveHeaderConfig = {
  propagateHeaders: {
    fromClientToSubgraphs: ({ request }) => ({
      'x-tenant-id': request.headers.get('tenant'),
      'x-internal-secret': process.env.HPP_BENCH_INTERNAL_SECRET,
    }),
  },
};
