import { decideAdmission, type AdmissionPolicy } from '../../../../../subgraphs/tenant/webhooks/endpoint-policy';
import type { EndpointState } from '../../../../../subgraphs/tenant/repositories/webhook-config.repository';

const POLICY: AdmissionPolicy = { endpointConcurrency: 2, breakerFailures: 3, breakerCooldownSeconds: 60, leaseSeconds: 15 };
const NOW = Date.parse('2026-12-20T12:00:00Z');
const due = (tenant: string, n: number) => Array.from({ length: n }, (_, i) => ({ id: `${tenant}-${i}`, job_id: `job-${tenant}-${i}`, tenant_id: tenant }));
const endpoint = (tenant: string, fields: Partial<EndpointState> = {}): [string, EndpointState] => [
  tenant,
  { tenant_id: tenant, enabled: true, has_url: true, consecutive_failures: 0, circuit_open_until: null, open: false, ...fields },
];
const decide = (deliveries: ReturnType<typeof due>, endpoints: [string, EndpointState][], inFlight: [string, number][] = []) =>
  decideAdmission(deliveries, new Map(endpoints), new Map(inFlight), POLICY, NOW, () => 0);

describe('webhook endpoint admission', () => {
  it('lets each endpoint in up to its share, counting what is in flight elsewhere, and defers the rest briefly', () => {
    const result = decide([...due('a', 5), ...due('b', 1)], [endpoint('a'), endpoint('b')], [['a', 1]]);
    expect(result.claim.map((d) => d.id)).toEqual(['a-0', 'b-0']);
    expect(result.defer.map((d) => d.delivery.id)).toEqual(['a-1', 'a-2', 'a-3', 'a-4']);
    expect(result.defer.every((d) => d.at.getTime() - NOW >= 1_000 && d.at.getTime() - NOW <= 2_000)).toBe(true);
    expect(result.probes).toEqual([]);
  });

  it('defers everything to the end of an open breaker’s cool-down', () => {
    const until = new Date(NOW + 30_000);
    const result = decide(due('a', 3), [endpoint('a', { consecutive_failures: 5, circuit_open_until: until, open: true })]);
    expect(result.claim).toEqual([]);
    expect(result.defer.map((d) => d.at.getTime())).toEqual([until.getTime(), until.getTime(), until.getTime()]);
  });

  it('after the cool-down lets exactly one probe through, and none while an attempt is still in flight', () => {
    const tripped = endpoint('a', { consecutive_failures: 5, circuit_open_until: new Date(NOW - 1), open: false });
    const idle = decide(due('a', 3), [tripped]);
    expect(idle.claim.map((d) => d.id)).toEqual(['a-0']);
    expect(idle.probes).toEqual(['a']);
    expect(idle.defer).toHaveLength(2);
    const busy = decide(due('a', 3), [tripped], [['a', 1]]);
    expect(busy.claim).toEqual([]);
    expect(busy.defer.every((d) => d.at.getTime() - NOW >= POLICY.leaseSeconds * 1000)).toBe(true);
  });

  it('claims a disabled or removed endpoint’s deliveries, to fail them without connecting', () => {
    const result = decide([...due('off', 3), ...due('gone', 1)], [endpoint('off', { enabled: false })]);
    expect(result.claim.map((d) => d.id)).toEqual(['off-0', 'off-1', 'off-2', 'gone-0']);
    expect(result.defer).toEqual([]);
  });
});
