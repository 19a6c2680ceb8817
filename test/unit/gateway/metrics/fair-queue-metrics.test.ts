import { register } from 'prom-client';
import { watchFairQueues } from '../../../../gateway/metrics/fair-queue-metrics';
import { FairShare } from '../../../../platform/fair-share';
import { parseMetrics, sampleValue } from '../../../utils/metrics-text';

const limits = { perKey: 1, total: 1, maxWaitMs: 60_000, maxQueuedPerKey: 1 };

/** Work that runs until the test lets it go. */
function held() {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { work: () => done, release };
}

const scrape = async () => parseMetrics(await register.metrics());

describe('fair-queue metrics: units per queue and state, drops and refusals per queue', () => {
  it('reads running and waiting units at scrape time, counts drops and refusals, and forgets unwatched queues', async () => {
    const analytics = new FairShare('analytics', limits);
    const logo = new FairShare('logo', limits);
    const unwatch = watchFairQueues([analytics, logo]);
    try {
      let samples = await scrape();
      for (const queue of ['analytics', 'logo']) {
        expect(sampleValue(samples, 'hpp_fair_queue_units', { queue, state: 'running' })).toBe(0);
        expect(sampleValue(samples, 'hpp_fair_queue_units', { queue, state: 'waiting' })).toBe(0);
        // Present from the start, at 0.
        expect(samples.some((s) => s.name === 'hpp_fair_queue_dropped_total' && s.labels.queue === queue)).toBe(true);
      }

      const first = held();
      const running = analytics.run('tenant-a', first.work);
      const gone = new AbortController();
      const waiting = analytics.run('tenant-a', async () => 'never', gone.signal);
      const refused = analytics.run('tenant-a', async () => 'never');
      samples = await scrape();
      expect(sampleValue(samples, 'hpp_fair_queue_units', { queue: 'analytics', state: 'running' })).toBe(1);
      expect(sampleValue(samples, 'hpp_fair_queue_units', { queue: 'analytics', state: 'waiting' })).toBe(1);
      expect(sampleValue(samples, 'hpp_fair_queue_units', { queue: 'logo', state: 'running' })).toBe(0);
      // The queue of one was full: the third unit is a refusal.
      await expect(refused).rejects.toMatchObject({ code: 'RATE_LIMITED' });
      gone.abort(new Error('client went away'));
      await expect(waiting).rejects.toThrow('client went away');
      first.release();
      await running;

      samples = await scrape();
      expect(sampleValue(samples, 'hpp_fair_queue_dropped_total', { queue: 'analytics' })).toBe(1);
      expect(sampleValue(samples, 'hpp_fair_queue_refusals_total', { queue: 'analytics' })).toBe(1);
      expect(sampleValue(samples, 'hpp_fair_queue_dropped_total', { queue: 'logo' })).toBe(0);
      expect(sampleValue(samples, 'hpp_fair_queue_units', { queue: 'analytics', state: 'running' })).toBe(0);
      // No series carries a tenant.
      expect(samples.filter((s) => s.name.startsWith('hpp_fair_queue_')).every((s) => !Object.values(s.labels).includes('tenant-a'))).toBe(true);
    } finally {
      unwatch();
    }
    // Unwatched: no longer read, no longer counted.
    await expect(analytics.run('tenant-a', async () => 'never', AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    const after = await scrape();
    expect(after.some((s) => s.name === 'hpp_fair_queue_units')).toBe(false);
    expect(sampleValue(after, 'hpp_fair_queue_dropped_total', { queue: 'analytics' })).toBe(1);
  });
});
