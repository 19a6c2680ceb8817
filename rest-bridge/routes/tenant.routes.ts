import type { RouteDefinition } from '../types';

/** Contract part 4.1: tenant configuration. */
export const TENANT_ROUTES: RouteDefinition[] = [
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
