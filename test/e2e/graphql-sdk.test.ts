import { randomUUID } from 'node:crypto';
import { print, type ExecutionResult } from 'graphql';
import { createClient as createSseClient } from 'graphql-sse';
import * as ops from '../../clients/graphql';
import type { ChargeItemType, ChartType, GiftCardStatus, MigrateTemplateQuestionSubscription, MigrationEventType, PaymentMedium, QuestionKind, RevenueGroupBy } from '../../clients/graphql';
import { baseUrl, createTestTenant, type TestTenant } from '../utils/e2e';
import { eventually } from '../utils/eventually';
import { failure, generatedOperations, recordingClient, servedEnums } from '../utils/graphql-sdk-kit';
import { LEGACY_FORM, LEGACY_FORM_SUGGESTIONS } from '../utils/notes';
import { collect, wsClient } from '../utils/ws';

// Every typed operation of clients/graphql (documents in operations/, types by graphql-codegen) sent
// through the SDK's client to a running server, each asserting what a front-end relies on: what a
// mutation creates comes back from the reads, lists page with cursors, an unknown id is null with
// NOT_FOUND. An operation added without being run here fails the last test.

describe(`the typed GraphQL operations against the server (${process.env.E2E_MODE} mode)`, () => {
  let tenant: TestTenant;
  let graph: ReturnType<typeof recordingClient>;
  let served: Awaited<ReturnType<typeof servedEnums>>;
  let locationId: string;
  let patientId: string;
  const unknown = randomUUID();

  /** The NOT_FOUND of a nullable lookup: the field null, one error whose path names it. */
  const expectNotFound = async (request: Promise<unknown>, field: string) => {
    const error = await failure(request);
    expect(error.data).toEqual({ [field]: null });
    expect(error.errors).toEqual([expect.objectContaining({ path: [field], extensions: expect.objectContaining({ code: 'NOT_FOUND' }) })]);
  };

  beforeAll(async () => {
    tenant = await createTestTenant('GraphQL SDK');
    graph = recordingClient({ url: `${baseUrl()}/graphql`, tenant: tenant.tenantId, apiKey: tenant.apiKey });
    served = await servedEnums(`${baseUrl()}/graphql`, tenant.headers, ['ChartType', 'GiftCardStatus', 'RevenueGroupBy', 'ChargeItemType', 'PaymentMedium', 'QuestionKind', 'MigrationEventType']);
    const { createLocation } = await graph.request(ops.CreateLocationDocument, { input: { name: 'North Clinic', addressLineOne: '1 Main St', city: 'Portland', state: 'OR', country: 'US' } });
    locationId = createLocation.id;
    const { createPatient } = await graph.request(ops.CreatePatientDocument, { input: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', dateOfBirth: '1990-12-10' } });
    patientId = createPatient.id;
  }, 60_000);

  describe('tenant', () => {
    it('PublicTenant and Tenant read the tenant; UpdateTenant changes it', async () => {
      expect((await graph.request(ops.PublicTenantDocument)).publicTenant).toEqual({ id: tenant.tenantId, name: 'GraphQL SDK' });
      const { updateTenant } = await graph.request(ops.UpdateTenantDocument, { input: { timezone: 'America/New_York', address: { city: 'Portland' } } });
      expect(updateTenant).toMatchObject({ id: tenant.tenantId, timezone: 'America/New_York', address: { city: 'Portland' } });
      const { tenant: read } = await graph.request(ops.TenantDocument);
      expect(read).toMatchObject({ id: tenant.tenantId, name: 'GraphQL SDK', timezone: 'America/New_York', livemode: true, address: { city: 'Portland' }, updatedAt: updateTenant.updatedAt });
    });

    it('CreateLocation comes back from Location and Locations; an unknown location is null with NOT_FOUND', async () => {
      expect((await graph.request(ops.LocationDocument, { id: locationId })).location).toMatchObject({ id: locationId, name: 'North Clinic', isVirtual: false, city: 'Portland' });
      const { locations } = await graph.request(ops.LocationsDocument, { first: 10, search: 'north' });
      expect(locations.nodes.map((l) => l.id)).toEqual([locationId]);
      expect(locations).toMatchObject({ totalCount: 1, pageInfo: { hasNextPage: false } });
      await expectNotFound(graph.request(ops.LocationDocument, { id: unknown }), 'location');
    });

    it('CreateProvider comes back from Providers, with its locations, filtered by location', async () => {
      const { createProvider } = await graph.request(ops.CreateProviderDocument, { input: { firstName: 'Grace', lastName: 'Hopper', title: 'MD', npi: '1234567893', locationIds: [locationId] } });
      expect(createProvider).toMatchObject({ firstName: 'Grace', locations: [{ id: locationId, name: 'North Clinic' }] });
      const { providers } = await graph.request(ops.ProvidersDocument, { first: 10, locationId });
      expect(providers.nodes).toEqual([createProvider]);
      expect((await graph.request(ops.ProvidersDocument, { first: 10, search: 'nobody-by-this-name' })).providers.totalCount).toBe(0);
    });

    it('Patients pages with cursors, every patient once; Patient reads one; an unknown one is null with NOT_FOUND', async () => {
      for (const firstName of ['Blaise', 'Carl']) await graph.request(ops.CreatePatientDocument, { input: { firstName, lastName: 'Pager' } });
      const first = (await graph.request(ops.PatientsDocument, { first: 2 })).patients;
      expect(first).toMatchObject({ totalCount: 3, pageInfo: { hasNextPage: true } });
      expect(first.pageInfo.endCursor).toBe(first.edges[1].cursor);
      const rest = (await graph.request(ops.PatientsDocument, { first: 2, after: first.pageInfo.endCursor })).patients;
      expect(rest).toMatchObject({ totalCount: 3, pageInfo: { hasNextPage: false } });
      const ids = [...first.edges, ...rest.edges].map((edge) => edge.node.id);
      expect(new Set(ids).size).toBe(3);
      expect(ids).toContain(patientId);
      const { patient } = await graph.request(ops.PatientDocument, { id: patientId });
      expect(patient).toMatchObject({ id: patientId, firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '1990-12-10', paymentMethods: [] });
      await expectNotFound(graph.request(ops.PatientDocument, { id: unknown }), 'patient');
    });

    it('AuditEvents finds the record of a patient read, filtered by action and resource', async () => {
      const { auditEvents } = await eventually(async () => {
        const page = await graph.request(ops.AuditEventsDocument, { first: 5, action: 'patient.read', resourceId: patientId });
        return page.auditEvents.totalCount > 0 ? page : null;
      });
      expect(auditEvents.nodes[0]).toMatchObject({ action: 'patient.read', resourceType: 'patient', resourceIds: [patientId], outcome: 'success' });
    });
  });

  describe('analytics', () => {
    it('dashboards: created, read with their widgets, listed by cursor, updated, deleted', async () => {
      const created = [];
      for (const name of ['Paged A', 'Paged B', 'Paged C']) created.push((await graph.request(ops.CreateDashboardDocument, { input: { name, description: 'SDK', layout: [] } })).createDashboard);
      const first = (await graph.request(ops.DashboardsDocument, { first: 2, name: 'Paged' })).dashboards;
      expect(first).toMatchObject({ totalCount: 3, pageInfo: { hasNextPage: true } });
      const rest = (await graph.request(ops.DashboardsDocument, { first: 2, name: 'Paged', after: first.pageInfo.endCursor })).dashboards;
      expect(rest.pageInfo.hasNextPage).toBe(false);
      // newest first by default
      expect([...first.nodes, ...rest.nodes].map((d) => d.id)).toEqual(created.map((d) => d.id).reverse());

      const [dashboard] = created;
      const { updateDashboard } = await graph.request(ops.UpdateDashboardDocument, { id: dashboard.id, input: { name: 'Front desk', locationId } });
      expect(updateDashboard).toMatchObject({ id: dashboard.id, name: 'Front desk', description: 'SDK', locationId });
      expect((await graph.request(ops.DashboardsDocument, { first: 10, locationId })).dashboards.nodes.map((d) => d.id)).toEqual([dashboard.id]);
      expect((await graph.request(ops.DashboardDocument, { id: dashboard.id })).dashboard).toMatchObject({ name: 'Front desk', widgets: [] });

      expect((await graph.request(ops.DeleteDashboardDocument, { id: dashboard.id })).deleteDashboard).toBe(true);
      await expectNotFound(graph.request(ops.DashboardDocument, { id: dashboard.id }), 'dashboard');
    });

    it('widgets: created on a dashboard, listed and filtered, updated, deleted', async () => {
      const { createDashboard } = await graph.request(ops.CreateDashboardDocument, { input: { name: 'Widgets' } });
      const line = served<ChartType>('ChartType', 'line');
      const bar = served<ChartType>('ChartType', 'bar');
      const query = { measures: ['revenue.netAmount'], dimensions: ['revenue.location'] };
      const { createWidget } = await graph.request(ops.CreateWidgetDocument, { input: { dashboardId: createDashboard.id, name: 'Net revenue', chartType: line, query, isArchived: false } });
      expect(createWidget).toMatchObject({ dashboardId: createDashboard.id, name: 'Net revenue', chartType: line, query, position: { x: 0, y: 0, w: 6, h: 4 }, isArchived: false });
      const { createWidget: other } = await graph.request(ops.CreateWidgetDocument, { input: { dashboardId: createDashboard.id, name: 'Lines', chartType: bar, query, isArchived: false } });

      const { updateWidget } = await graph.request(ops.UpdateWidgetDocument, { id: createWidget.id, input: { name: 'Net revenue by location', position: { x: 6, y: 0, w: 6, h: 3 } } });
      expect(updateWidget).toMatchObject({ id: createWidget.id, name: 'Net revenue by location', chartType: line, position: { x: 6, y: 0, w: 6, h: 3 } });
      const { widgets } = await graph.request(ops.WidgetsDocument, { dashboardId: createDashboard.id, first: 1 });
      expect(widgets).toMatchObject({ totalCount: 2, pageInfo: { hasNextPage: true } });
      const { widgets: lines } = await graph.request(ops.WidgetsDocument, { dashboardId: createDashboard.id, first: 10, chartType: line });
      expect(lines.nodes).toEqual([updateWidget]);
      expect((await graph.request(ops.DashboardDocument, { id: createDashboard.id })).dashboard!.widgets.map((w) => w.id).sort()).toEqual([createWidget.id, other.id].sort());

      expect((await graph.request(ops.DeleteWidgetDocument, { id: other.id })).deleteWidget).toBe(true);
      expect((await graph.request(ops.WidgetsDocument, { dashboardId: createDashboard.id, first: 10 })).widgets.nodes.map((w) => w.id)).toEqual([createWidget.id]);
    });

    it('the revenue breakdown reports the charge items RecordChargeItem recorded: summary, groups, lines by cursor', async () => {
      const lines = [
        { itemName: 'Botox', grossCents: 20_000, discountCents: 2_500, paymentMedium: 'card' },
        { itemName: 'Serum', grossCents: 4_000, discountCents: 0, paymentMedium: 'cash' },
      ];
      for (const line of lines) {
        const input = { locationId, patientId, itemCategory: 'Retail', itemType: served<ChargeItemType>('ChargeItemType', 'product'), itemName: line.itemName, paymentMedium: served<PaymentMedium>('PaymentMedium', line.paymentMedium), grossCents: line.grossCents, discountCents: line.discountCents };
        const { recordChargeItem } = await graph.request(ops.RecordChargeItemDocument, { input });
        expect(recordChargeItem).toMatchObject({ locationId, locationName: 'North Clinic', itemName: line.itemName, netCents: line.grossCents - line.discountCents });
      }
      const filter = { timezone: 'UTC', locationIds: [locationId] };
      const { revenueBreakdownSummary } = await graph.request(ops.RevenueBreakdownSummaryDocument, filter);
      expect(revenueBreakdownSummary).toMatchObject({ count: 2, grossCents: 24_000, discountCents: 2_500, netCents: 21_500, chargeItemCount: 2, soldPackageCount: 0 });

      const groupBy = served<RevenueGroupBy>('RevenueGroupBy', 'location');
      const { revenueBreakdownGroupSummaries } = await graph.request(ops.RevenueBreakdownGroupSummariesDocument, { ...filter, groupBy });
      expect(revenueBreakdownGroupSummaries).toEqual([expect.objectContaining({ groupKey: locationId, groupLabel: 'North Clinic', count: 2, netCents: 21_500 })]);

      const first = (await graph.request(ops.RevenueBreakdownDocument, { ...filter, first: 1 })).revenueBreakdown;
      expect(first).toMatchObject({ totalCount: 2, pageInfo: { hasNextPage: true } });
      const rest = (await graph.request(ops.RevenueBreakdownDocument, { ...filter, first: 1, after: first.pageInfo.endCursor })).revenueBreakdown;
      expect(rest.pageInfo.hasNextPage).toBe(false);
      expect([...first.nodes, ...rest.nodes].map((l) => l.itemName).sort()).toEqual(['Botox', 'Serum']);
    });
  });

  describe('billing', () => {
    it('gift cards: issued PENDING, activated, listed by status with cursors; an unknown one is null with NOT_FOUND', async () => {
      const pending = served<GiftCardStatus>('GiftCardStatus', 'pending');
      const active = served<GiftCardStatus>('GiftCardStatus', 'active');
      const issued = [];
      for (const initialValueCents of [5_000, 10_000]) {
        const { issueGiftCard } = await graph.request(ops.IssueGiftCardDocument, { input: { initialValueCents, recipientPatientId: patientId, suppressRecipientNotification: true } });
        expect(issueGiftCard).toMatchObject({ initialValueCents, status: pending, isActive: false, recipientPatientId: patientId });
        issued.push(issueGiftCard);
      }
      const { activateGiftCard } = await graph.request(ops.ActivateGiftCardDocument, { id: issued[0].id, sendNotification: false });
      expect(activateGiftCard).toMatchObject({ id: issued[0].id, status: active, isActive: true, currentBalanceCents: 5_000 });
      const { issuedGiftCard } = await graph.request(ops.IssuedGiftCardDocument, { id: issued[0].id });
      expect(issuedGiftCard).toMatchObject({ code: issued[0].code, transactions: [expect.objectContaining({ amountCents: 5_000, balanceAfterCents: 5_000 })] });

      const page = (await graph.request(ops.IssuedGiftCardsDocument, { first: 1 })).issuedGiftCards;
      expect(page).toMatchObject({ totalCount: 2, pageInfo: { hasNextPage: true } });
      const next = (await graph.request(ops.IssuedGiftCardsDocument, { first: 1, after: page.pageInfo.endCursor })).issuedGiftCards;
      expect([...page.nodes, ...next.nodes].map((c) => c.id).sort()).toEqual(issued.map((c) => c.id).sort());
      expect((await graph.request(ops.IssuedGiftCardsDocument, { first: 10, status: pending })).issuedGiftCards.nodes.map((c) => c.id)).toEqual([issued[1].id]);
      await expectNotFound(graph.request(ops.IssuedGiftCardDocument, { id: unknown }), 'issuedGiftCard');
    });

    it("CreatePatientPaymentMethod saves a card that the patient's chart then shows", async () => {
      const processorId = `pm_sdk_${randomUUID().slice(0, 8)}`;
      const card = { brand: 'visa', last4: '4242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3 };
      const { createPatientPaymentMethod } = await graph.request(ops.CreatePatientPaymentMethodDocument, { patientId, input: { paymentMethodId: processorId, methodType: 'CARD', card } });
      expect(createPatientPaymentMethod).toMatchObject({ patientId, processorPaymentMethodId: processorId, ...card, isArchived: false });
      const { patient } = await graph.request(ops.PatientDocument, { id: patientId });
      expect(patient!.paymentMethods).toEqual([expect.objectContaining({ id: createPatientPaymentMethod.id, brand: 'visa', last4: '4242' })]);
    });
  });

  describe('notes and the subscription', () => {
    let template: ops.CreateNoteTemplateMutation['createNoteTemplate'];
    const expectedEvents = () => [
      ...LEGACY_FORM_SUGGESTIONS.map((q, index) => ({ type: served<MigrationEventType>('MigrationEventType', 'question'), index, count: null, message: null, question: { ...q, kind: served<QuestionKind>('QuestionKind', q.kind) } })),
      { type: served<MigrationEventType>('MigrationEventType', 'done'), index: null, count: LEGACY_FORM_SUGGESTIONS.length, message: null, question: null },
    ];
    const variables = () => ({ templateId: template.id, questionId: template.questions[1].id });

    it('CreateNoteTemplate comes back from NoteTemplate and NoteTemplates; an unknown one is null with NOT_FOUND', async () => {
      const kind = (name: string) => served<QuestionKind>('QuestionKind', name);
      const input = { name: 'Imported intake', questions: [{ kind: kind('text'), label: 'Full name', required: true }, { kind: kind('text_area'), label: 'Paper form', legacyContent: LEGACY_FORM, required: false }] };
      template = (await graph.request(ops.CreateNoteTemplateDocument, { input })).createNoteTemplate;
      expect(template.questions).toMatchObject([{ label: 'Full name', kind: kind('text'), isLegacy: false }, { label: 'Paper form', kind: kind('text_area'), isLegacy: true }]);
      expect((await graph.request(ops.NoteTemplateDocument, { id: template.id })).noteTemplate).toMatchObject({ id: template.id, version: template.version, questions: template.questions });
      const { noteTemplates } = await graph.request(ops.NoteTemplatesDocument, { first: 5 });
      expect(noteTemplates).toMatchObject({ totalCount: 1, nodes: [{ id: template.id, name: 'Imported intake' }] });
      await expectNotFound(graph.request(ops.NoteTemplateDocument, { id: unknown }), 'noteTemplate');
    });

    it('MigrateTemplateQuestion over graphql-sse streams the suggestions for the question the mutation created', async () => {
      const client = createSseClient({ url: `${baseUrl()}/graphql/stream`, headers: tenant.headers, retryAttempts: 0 });
      const results: ExecutionResult<MigrateTemplateQuestionSubscription, unknown>[] = [];
      graph.sent.add('MigrateTemplateQuestion');
      try {
        for await (const result of client.iterate<MigrateTemplateQuestionSubscription>({ query: print(ops.MigrateTemplateQuestionDocument), variables: variables() })) results.push(result);
      } finally {
        client.dispose();
      }
      expect(results.map((r) => r.errors ?? r.data!.migrateTemplateQuestion)).toEqual(expectedEvents());
    });

    it('MigrateTemplateQuestion over graphql-ws streams the same events', async () => {
      const client = wsClient(baseUrl(), { tenant: tenant.tenantId, apiKey: tenant.apiKey });
      try {
        const { results, error } = await collect(client, { query: print(ops.MigrateTemplateQuestionDocument), variables: variables() });
        expect(error).toBeUndefined();
        expect(results.map((r: ExecutionResult<MigrateTemplateQuestionSubscription, unknown>) => r.errors ?? r.data!.migrateTemplateQuestion)).toEqual(expectedEvents());
      } finally {
        await client.dispose();
      }
    });
  });

  // Last: the tests above must have sent every operation clients/graphql/operations defines.
  it('ran every operation of clients/graphql', () => {
    expect([...graph.sent].sort()).toEqual(generatedOperations());
  });
});
