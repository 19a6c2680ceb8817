import { baseUrl, request, type TestTenant } from './e2e';
import { createLegacyTemplate } from './notes';

/** Real ids of a tenant, by the REST parameter name they fill (`dashboard_id`, `patient_id`, ...). */
export type ForeignIds = Record<string, string>;

async function graphql(tenant: TestTenant, query: string, variables: Record<string, unknown>): Promise<any> {
  const res = await request(`${baseUrl()}/graphql`, {
    method: 'POST',
    headers: { ...tenant.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(15_000),
  });
  if (res.status !== 200 || res.body?.errors) throw new Error(`setting up a tenant's data failed: ${res.status} ${res.text.slice(0, 500)}`);
  return res.body.data;
}

async function rest(tenant: TestTenant, path: string, body: unknown): Promise<any> {
  const res = await request(`${baseUrl()}${path}`, {
    method: 'POST',
    headers: { ...tenant.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  if (res.status >= 300) throw new Error(`setting up a tenant's data failed: POST ${path} ${res.status} ${res.text.slice(0, 500)}`);
  return res.body;
}

/** Creates, through the API, one of each resource a REST path or query names, in `tenant`. */
export async function createResources(tenant: TestTenant): Promise<ForeignIds> {
  const dashboard = await rest(tenant, '/analytics/dashboards', { name: 'Theirs' });
  const widget = await rest(tenant, '/analytics/widgets', { dashboardId: dashboard.id, name: 'Theirs', chartType: 'line', query: {} });
  const { createCampaign } = await graphql(tenant, 'mutation($input: CreateCampaignInput!) { createCampaign(input: $input) { id webhook { webhookKey } } }', { input: { name: 'Theirs' } });
  const { createPatient } = await graphql(tenant, 'mutation($input: CreatePatientInput!) { createPatient(input: $input) { id } }', {
    input: { firstName: 'Other', lastName: 'Patient' },
  });
  const { issueGiftCard } = await graphql(tenant, 'mutation($input: IssueGiftCardInput!) { issueGiftCard(input: $input) { id } }', {
    input: { initialValueCents: 5000, suppressRecipientNotification: true },
  });
  const template = await createLegacyTemplate(tenant);
  return {
    dashboard_id: dashboard.id,
    widget_id: widget.id,
    campaign_id: createCampaign.id,
    webhook_key: createCampaign.webhook.webhookKey,
    patient_id: createPatient.id,
    gift_card_id: issueGiftCard.id,
    template_id: template.templateId,
    question_id: template.legacyQuestionId,
  };
}
