import { randomUUID } from 'node:crypto';
import { analyticsSubgraph } from '../../subgraphs/analytics';
import { jobQueueOf } from '../../platform/jobs/job-queue';
import { WEBHOOK_EVENT_QUEUE, type WebhookEventJob } from '../../platform/jobs/webhook-event';
import { drainLegacyOutbox } from '../../platform/jobs/drain-legacy-outbox';
import { startSubgraph, type RunningSubgraph } from '../../platform/subgraph-runtime';

describe('events left in an outbox table by an earlier release move to the job queue', () => {
  let subgraph: RunningSubgraph;
  beforeAll(async () => {
    subgraph = await startSubgraph(analyticsSubgraph, process.env.DATABASE_URL!, { migrate: false, background: false });
  });
  afterAll(() => subgraph.close());

  it('queues an unrelayed event under its own id (its webhook-id) and removes it; relayed ones stay', async () => {
    const [pending, relayed, tenantId] = [randomUUID(), randomUUID(), randomUUID()];
    const sql = (text: string, params: unknown[]) => subgraph.orm.em.getConnection().execute(text, params);
    await sql(
      `insert into analytics.outbox_events (id, tenant_id, type, data, occurred_at, relayed_at) values
         (?, ?, 'campaign.updated', '{"id": "c-1", "changedFields": ["name"]}', '2026-11-20T10:00:00.123Z', null),
         (?, ?, 'campaign.updated', '{"id": "c-2", "changedFields": ["name"]}', '2026-11-20T10:00:00Z', now())`,
      [pending, tenantId, relayed, tenantId],
    );
    await drainLegacyOutbox(subgraph.orm, 'analytics');
    const [job] = await jobQueueOf(subgraph.orm.em as never).boss.findJobs<WebhookEventJob>(WEBHOOK_EVENT_QUEUE, { id: pending });
    expect(job.data).toEqual({ id: pending, tenantId, type: 'campaign.updated', data: { id: 'c-1', changedFields: ['name'] }, occurredAt: '2026-11-20T10:00:00.123Z' });
    expect(await sql(`select id from analytics.outbox_events where tenant_id = ? order by id`, [tenantId])).toEqual([{ id: relayed }]);
    expect(await jobQueueOf(subgraph.orm.em as never).boss.findJobs(WEBHOOK_EVENT_QUEUE, { id: relayed })).toEqual([]);
  });
});
