import type { DocumentedRoute } from '../openapi';

// The contract's names for the graph's instants (docs/api.md, "Schema style"): `startDate: startsAt`.
const CAMPAIGN = `id name locationId description platformId platformAssetId
  externalCampaignId externalResourceName externalName externalStatus externalCurrency
  externalDailyBudgetCents externalLifetimeBudgetCents externalLastSeenAt externalLastSyncedAt externalStaleAt externalSyncError
  isActive startDate: startsAt endDate: endsAt budgetCents pipelineId webhook { webhookKey webhookUrl redirectUrl }
  createdDate: createdAt updatedDate: updatedAt opportunityCount convertedCount`;

/** Contract part 4.5: campaigns, and the public lead endpoint behind each campaign's `webhook.webhookUrl` (part 6.1). */
export const CAMPAIGN_ROUTES: DocumentedRoute[] = [
  {
    method: 'PUT',
    path: '/opportunity/campaign/{campaign_id}',
    operationId: 'updateCampaign',
    summary: 'Update the fields sent of a campaign (end before start, negative budget, empty name: 422)',
    tag: 'Campaigns',
    document: `mutation UpdateCampaign($id: ID!, $input: UpdateCampaignInput!) { updateCampaign(id: $id, input: $input) { ${CAMPAIGN} } }`,
    pathParams: { campaign_id: 'id' },
    body: { variable: 'input', required: false, rename: { startDate: 'startsAt', endDate: 'endsAt' } },
    result: (data) => data.updateCampaign,
    requestExample: { name: 'Spring check-up', isActive: true, startDate: '2026-03-01T00:00:00Z', endDate: '2026-05-31T23:59:59Z', budgetCents: 250000 },
  },
  {
    method: 'POST',
    path: '/opportunity/leads/{webhook_key}',
    operationId: 'submitCampaignLead',
    summary: "A campaign's lead webhook: no TENANT or API-KEY, the key in the path is the secret; unknown key 404, inactive campaign 409",
    tag: 'Campaigns',
    auth: 'public',
    // The key is asked before the body is read: an unknown key's 404, an inactive campaign's 409, the lead unread.
    admission: `query CampaignAcceptsLeads($webhookKey: String!) { campaignAcceptsLeads(webhookKey: $webhookKey) }`,
    document: `mutation SubmitCampaignLead($webhookKey: String!, $input: CampaignLeadInput!) { submitCampaignLead(webhookKey: $webhookKey, input: $input) { opportunityId redirectUrl } }`,
    pathParams: { webhook_key: 'webhookKey' },
    body: { variable: 'input', required: true },
    status: 201,
    result: (data) => data.submitCampaignLead,
    responseDescription: 'The lead was recorded as a NEW opportunity; send the visitor to redirectUrl (null when the campaign has none)',
    requestExample: { name: 'Jane Doe', email: 'jane@example.com', phone: '+1 555 010 0199', fields: { message: 'Mornings are best' } },
  },
];
