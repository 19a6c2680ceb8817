import { execute, parse, type ExecutionResult } from 'graphql';
import { startSubgraph, type RunningSubgraph } from '../../../platform/subgraph-runtime';
import { tenantSubgraph } from '../../../subgraphs/tenant';
import { TenantService } from '../../../subgraphs/tenant/services/tenant.service';

/** The base URL the kit's subgraph builds asset links on. */
export const KIT_PUBLIC_URL = 'https://api.test.example';

/** The tenant subgraph on the test database, with helpers to make tenants and run operations as one of them. */
export interface TenantSubgraphKit {
  subgraph: RunningSubgraph;
  /** Creates a tenant (as the operator would) and returns its id. */
  tenant(name?: string): Promise<string>;
  /** Runs a GraphQL operation with this tenant in the context (null: no tenant). */
  run(tenantId: string | null, query: string, variables?: Record<string, unknown>): Promise<ExecutionResult<any>>;
  close(): Promise<void>;
}

/** Starts the subgraph in-process (migrations are the global setup's job). */
export async function startTenantKit(): Promise<TenantSubgraphKit> {
  const subgraph = await startSubgraph(tenantSubgraph, process.env.DATABASE_URL!, { migrate: false, publicUrl: KIT_PUBLIC_URL });
  return {
    subgraph,
    async tenant(name = 'Kit Clinic') {
      return (await new TenantService(subgraph.orm.em.fork() as never).create(name)).id;
    },
    run: (tenantId, query, variables) =>
      execute({ schema: subgraph.schema, document: parse(query), variableValues: variables, contextValue: subgraph.context({ tenantId, requestId: 'test' }) }) as Promise<
        ExecutionResult<any>
      >,
    close: () => subgraph.close(),
  };
}

/** The validation issues a failed operation carries (the first error's ValidationError). */
export function issuesOf(result: ExecutionResult): unknown[] {
  const original = result.errors?.[0]?.originalError as { issues?: unknown[] } | undefined;
  if (!original?.issues) throw new Error(`expected a validation error, got ${JSON.stringify(result)}`);
  return original.issues;
}
