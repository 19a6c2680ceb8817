import type { DocumentedRoute } from '../openapi';

const AUDIT_EVENT = 'id seq occurredAt actor { kind id } action resourceType resourceIds outcome requestId clientAddress';

/**
 * The audit trail's filters and order as query parameters (snake_case) -> the variables of
 * `auditEvents`, named like its arguments; the export (`GET /audit/events/export`, answered by
 * the edge) takes the same.
 */
export const AUDIT_FILTER_PARAMS = {
  actor_id: 'actorId',
  actor_kind: 'actorKind',
  resource_id: 'resourceId',
  action: 'action',
  from: 'from',
  to: 'to',
  sort_direction: 'sortDirection',
} as const;

/** The variables of AUDIT_FILTER_PARAMS, with the graph's defaults. */
export const AUDIT_FILTER_VARIABLES = '$actorId: ID, $actorKind: AuditActorKind, $resourceId: ID, $action: String, $from: DateTime, $to: DateTime, $sortDirection: SortDirection = DESC';

const AUDIT_FILTER_ARGS = 'actorId: $actorId, actorKind: $actorKind, resourceId: $resourceId, action: $action, from: $from, to: $to, sortDirection: $sortDirection';

const EXAMPLE = {
  id: '0d3f5c1e-8a2b-4c7d-9e6f-1a2b3c4d5e6f',
  seq: 42,
  occurredAt: '2026-12-28T09:15:02.311Z',
  actor: { kind: 'key', id: '7b1e9c40-2d3a-4f5b-8c6d-9e0f1a2b3c4d' },
  action: 'patient.read',
  resourceType: 'patient',
  resourceIds: ['5a9d7f3e-1c2b-4a6d-8e0f-3b4c5d6e7f80'],
  outcome: 'success',
  requestId: 'c1f0e2d3-4b5a-6978-8a9b-0c1d2e3f4a5b',
  clientAddress: '203.0.113.7',
};

/** The tenant's audit trail (issue 33): who read or changed what. */
export const AUDIT_ROUTES: DocumentedRoute[] = [
  {
    method: 'GET',
    path: '/audit/events',
    operationId: 'listAuditEvents',
    summary: "A page of the tenant's audit trail, newest first by default; filters by actor, resource id (e.g. a patient's), action and time (from/to inclusive)",
    tag: 'Audit',
    document: `query AuditEvents($perPage: Int = 20, $after: String, ${AUDIT_FILTER_VARIABLES}) {
      auditEvents(first: $perPage, after: $after, ${AUDIT_FILTER_ARGS}) { nodes { ${AUDIT_EVENT} } totalCount }
    }`,
    queryParams: { page: 'page', per_page: 'perPage', ...AUDIT_FILTER_PARAMS },
    paged: 'envelope',
    result: (data) => data.auditEvents,
    responseDescription: 'A page of audit records: {items, total, page, perPage, pages}. `GET /audit/events/export` streams every matching record instead',
    responseExample: { items: [EXAMPLE], total: 1, page: 1, perPage: 20, pages: 1 },
  },
];
