import type { Scope } from '../../schema/scopes';

/** What a root field asks of its caller: a scope, or only to be an authenticated caller of the tenant (`any`). */
export type FieldGrant = Scope | 'any';

/**
 * The one table of who may call what (docs/access.md is generated from it): every root field of
 * the graph and the scope it needs. REST routes run these fields, so they need the same. A field
 * missing here stops the gateway at start-up (scope-check.ts), so a new operation cannot ship
 * open by accident.
 */
export const ROOT_FIELD_SCOPES: Readonly<Record<'Query' | 'Mutation' | 'Subscription', Readonly<Record<string, FieldGrant>>>> = {
  Query: {
    tenant: 'tenant:read',
    publicTenant: 'tenant:read',
    tenantLogo: 'tenant:read',
    locations: 'tenant:read',
    location: 'tenant:read',
    providers: 'tenant:read',
    provider: 'tenant:read',
    patients: 'patients:read',
    patient: 'patients:read',
    executeAnalyticsQuery: 'analytics:read',
    analyticsQueryModel: 'analytics:read',
    dashboards: 'analytics:read',
    dashboard: 'analytics:read',
    widgets: 'analytics:read',
    widget: 'analytics:read',
    campaigns: 'analytics:read',
    campaign: 'analytics:read',
    revenueBreakdownGroups: 'analytics:read',
    revenueBreakdown: 'analytics:read',
    revenueBreakdownGroupSummaries: 'analytics:read',
    revenueBreakdownSummary: 'analytics:read',
    issuedGiftCard: 'billing:read',
    issuedGiftCards: 'billing:read',
    member: 'billing:read',
    members: 'billing:read',
    merchantAccounts: 'billing:read',
    noteTemplate: 'notes:read',
    noteTemplates: 'notes:read',
    webhookConfig: 'webhooks:manage',
    webhookDeliveries: 'webhooks:manage',
    apiKeys: 'keys:manage',
    users: 'users:manage',
    auditEvents: 'audit:read',
    // A campaign's lead form is public (the webhook key in its path is the secret): nothing to grant.
    campaignAcceptsLeads: 'any',
    analyticsHealth: 'any',
    billingHealth: 'any',
    notesHealth: 'any',
    tenantHealth: 'any',
  },
  Mutation: {
    updateTenant: 'tenant:write',
    setTenantLogo: 'tenant:write',
    createLocation: 'tenant:write',
    createProvider: 'tenant:write',
    createPatient: 'patients:write',
    createDashboard: 'analytics:write',
    updateDashboard: 'analytics:write',
    deleteDashboard: 'analytics:write',
    createWidget: 'analytics:write',
    updateWidget: 'analytics:write',
    deleteWidget: 'analytics:write',
    createCampaign: 'analytics:write',
    updateCampaign: 'analytics:write',
    issueGiftCard: 'billing:write',
    activateGiftCard: 'billing:write',
    createMember: 'billing:write',
    makeMemberManualPayment: 'billing:write',
    createMerchantAccount: 'billing:write',
    setDefaultMerchantAccount: 'billing:write',
    createPatientPaymentMethod: 'billing:write',
    recordChargeItem: 'billing:write',
    recordSoldPackage: 'billing:write',
    createNoteTemplate: 'notes:write',
    addTemplateQuestion: 'notes:write',
    updateWebhookConfig: 'webhooks:manage',
    redeliverWebhookEvent: 'webhooks:manage',
    sendTestWebhookEvent: 'webhooks:manage',
    inviteUser: 'users:manage',
    changeUserRole: 'users:manage',
    removeUser: 'users:manage',
    setTwoFactorRequired: 'users:manage',
    setAllowedOrigins: 'users:manage',
    configureSingleSignOn: 'users:manage',
    disableSingleSignOn: 'users:manage',
    submitCampaignLead: 'any',
  },
  Subscription: {
    migrateTemplateQuestion: 'notes:write',
  },
};

/**
 * The routes the edge answers itself rather than through a GraphQL operation, each with the scope
 * it needs (`ScopeCheck.require`): a streamed export is not one JSON answer. docs/access.md lists
 * them with the REST routes.
 */
export const EDGE_ROUTE_SCOPES = [{ method: 'GET', path: '/audit/events/export', scope: 'audit:read' }] as const satisfies readonly { method: string; path: string; scope: Scope }[];
