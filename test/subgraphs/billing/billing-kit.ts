import { execute, parse, type ExecutionResult } from 'graphql';
import { billingSubgraph } from '../../../subgraphs/billing';
import { startSubgraph, type RunningSubgraph } from '../../../platform/subgraph-runtime';
import { tenantSubgraph } from '../../../subgraphs/tenant';
import { TenantService } from '../../../subgraphs/tenant/services/tenant.service';

/** The billing subgraph beside the tenant subgraph (whose directory billing reads), on the test database. */
export interface BillingKit {
  billing: RunningSubgraph;
  tenantGraph: RunningSubgraph;
  /** Creates a tenant as the operator would. */
  tenant(name?: string): Promise<string>;
  /** Runs an operation on the billing subgraph as this tenant. */
  run(tenantId: string | null, query: string, variables?: Record<string, unknown>): Promise<ExecutionResult<any>>;
  /** Creates a patient, location or provider through the tenant subgraph; returns its id. */
  patient(tenantId: string, input?: Record<string, unknown>): Promise<string>;
  location(tenantId: string, input?: Record<string, unknown>): Promise<string>;
  provider(tenantId: string, input?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

async function runOn(subgraph: RunningSubgraph, tenantId: string | null, query: string, variables?: Record<string, unknown>): Promise<ExecutionResult<any>> {
  return execute({ schema: subgraph.schema, document: parse(query), variableValues: variables, contextValue: subgraph.context({ tenantId, requestId: 'test' }) }) as Promise<ExecutionResult<any>>;
}

async function create(subgraph: RunningSubgraph, tenantId: string, mutation: string, type: string, input: Record<string, unknown>): Promise<string> {
  const result = await runOn(subgraph, tenantId, `mutation($i: ${type}!) { ${mutation}(input: $i) { id } }`, { i: input });
  if (result.errors) throw new Error(`${mutation} failed: ${JSON.stringify(result.errors)}`);
  return result.data[mutation].id;
}

/** Starts both subgraphs in-process; billing's background sender is off, tests drive it by hand. */
export async function startBillingKit(): Promise<BillingKit> {
  const url = process.env.DATABASE_URL!;
  const tenantGraph = await startSubgraph(tenantSubgraph, url, { migrate: false });
  const billing = await startSubgraph(billingSubgraph, url, { migrate: false, background: false });
  return {
    billing,
    tenantGraph,
    tenant: async (name = 'Billing Clinic') => (await new TenantService(tenantGraph.orm.em.fork() as never).create(name)).id,
    run: (tenantId, query, variables) => runOn(billing, tenantId, query, variables),
    patient: (tenantId, input = {}) => create(tenantGraph, tenantId, 'createPatient', 'CreatePatientInput', { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', ...input }),
    location: (tenantId, input = {}) => create(tenantGraph, tenantId, 'createLocation', 'CreateLocationInput', { name: 'Main Clinic', addressLineOne: '1 Main St', city: 'Portland', ...input }),
    provider: (tenantId, input = {}) => create(tenantGraph, tenantId, 'createProvider', 'CreateProviderInput', { firstName: 'Maya', lastName: 'Okafor', ...input }),
    async close() {
      await billing.close();
      await tenantGraph.close();
    },
  };
}

/** The validation issues of a failed operation (its ValidationError), without `input` for brevity. */
export function issuesOf(result: ExecutionResult): { type: string; loc: (string | number)[]; msg: string }[] {
  const original = result.errors?.[0]?.originalError as { issues?: { type: string; loc: (string | number)[]; msg: string }[] } | undefined;
  if (!original?.issues) throw new Error(`expected a validation error, got ${JSON.stringify(result.errors ?? result.data)}`);
  return original.issues.map(({ type, loc, msg }) => ({ type, loc, msg }));
}

/** The error code of a failed operation. */
export const codeOf = (result: ExecutionResult): string | undefined => (result.errors?.[0]?.originalError as { code?: string } | undefined)?.code;
