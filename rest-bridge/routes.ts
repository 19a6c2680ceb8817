import type { RouteDefinition } from './types';

/**
 * The REST surface, one entry per endpoint of the contract (spec part 4), in the contract's order.
 * Each names the GraphQL operation it runs; the OpenAPI document is generated from this table.
 */
export const ROUTES: RouteDefinition[] = [
  // 4.1 Tenant
  {
    method: 'GET',
    path: '/tenant/public',
    operationId: 'getPublicTenant',
    summary: 'The tenant as shown to patients',
    tag: 'Tenant',
    document: `query PublicTenant { publicTenant { id name timezone locale currency website phone primaryColor } }`,
    result: (data) => data.publicTenant,
  },
  {
    method: 'GET',
    path: '/tenant/private',
    operationId: 'getPrivateTenant',
    summary: "The tenant's whole record",
    tag: 'Tenant',
    document: `query PrivateTenant { tenant { id name legalName timezone locale currency website phone contactEmail primaryColor createdAt updatedAt } }`,
    result: (data) => data.tenant,
  },
];
