import { buildAccessReport, meetsTarget, restrictedOverFull, type AccessConditions, type AccessResult } from '../../../bench/access-report';

const conditions: AccessConditions = {
  date: new Date('2025-01-02T03:04:05Z'),
  machine: { cores: 2, model: 'Test CPU', memoryGiB: 4, node: 'v24.0.0', platform: 'linux test x64' },
  mode: 'all-in-one (one process)',
  database: 'DATABASE_URL',
  rounds: 2,
  roundSeconds: 2,
  connections: 50,
  warmupSeconds: 5,
};

const result = (full: number, restricted: number, problems: string[] = []): AccessResult => ({
  load: { name: 'rest', request: 'GET /tenant/public', scope: 'tenant:read' },
  cpuUs: { full, restricted },
  rounds: [restricted / full - 0.01, restricted / full + 0.01],
  requestsPerSecond: { full: 4000, restricted: 3900 },
  p99Ms: { full: 20, restricted: 21 },
  problems,
});

describe('buildAccessReport (bench/access.ts: restricted / full server CPU per request, target <= 1.10x)', () => {
  it('judges the ratio against the target, the bar itself included', () => {
    expect(restrictedOverFull(result(200, 210))).toBeCloseTo(1.05);
    expect(meetsTarget(result(200, 220))).toBe(true);
    expect(meetsTarget(result(200, 221))).toBe(false);
  });

  it('writes the machine, the date, the ratio with its rounds and the verdict', () => {
    const report = buildAccessReport([result(200, 210)], conditions);
    expect(report.valid).toBe(true);
    expect(report.markdown).toContain('2025-01-02T03:04:05.000Z');
    expect(report.markdown).toContain('2 cores, Test CPU');
    expect(report.markdown).toMatch(/ 200 \/ 210 \| +\*\*1\.05x\*\* \(1\.04x-1\.06x\) \|.*\| PASS +\|/);
    expect(report.markdown).toContain('Valid run');
  });

  it('is invalid when a side got non-2xx answers or CPU could not be read, and says which', () => {
    const refused = buildAccessReport([result(200, 210, ['restricted: 3 non-2xx (403: 3)'])], conditions);
    expect(refused.valid).toBe(false);
    expect(refused.markdown).toContain('rest restricted: 3 non-2xx (403: 3)');
    expect(refused.markdown).toContain('PASS (invalid run)');
    const blind = buildAccessReport([result(Number.NaN, Number.NaN)], conditions);
    expect(blind.valid).toBe(false);
    expect(blind.markdown).toContain('no server CPU measurement');
  });
});
