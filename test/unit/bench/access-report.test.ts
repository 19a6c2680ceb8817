import {
  auditedOverUnaudited,
  buildAccessReport,
  meetsTarget,
  recordsPerRequest,
  recordsProblem,
  restrictedOverFull,
  type AccessConditions,
  type AccessResult,
  type AuditResult,
} from '../../../bench/access-report';

const conditions: AccessConditions = {
  date: new Date('2025-01-02T03:04:05Z'),
  machine: { cores: 2, model: 'Test CPU', memoryGiB: 4, node: 'v24.0.0', platform: 'linux test x64' },
  mode: 'all-in-one (one process)',
  database: 'DATABASE_URL',
  rounds: 2,
  roundSeconds: 2,
  connections: 50,
  warmupSeconds: 5,
  directoryRows: 25,
  settleMs: 250,
};

const result = (full: number, restricted: number, problems: string[] = []): AccessResult => ({
  load: { name: 'rest', request: 'GET /tenant/public', scope: 'tenant:read' },
  cpuUs: { full, restricted },
  rounds: [restricted / full - 0.01, restricted / full + 0.01],
  requestsPerSecond: { full: 4000, restricted: 3900 },
  p99Ms: { full: 20, restricted: 21 },
  problems,
});

const audit = (audited: number, unaudited: number, records = { written: 10_000, answered: 10_000, sent: 10_050 }, problems: string[] = []): AuditResult => ({
  requests: { audited: 'POST /graphql { patients(perPage: 20) { items { id } } }', unaudited: 'POST /graphql { locations(perPage: 20) { items { id } } }' },
  cpuUs: { audited, unaudited },
  rounds: [audited / unaudited - 0.02, audited / unaudited + 0.02],
  requestsPerSecond: { audited: 800, unaudited: 850 },
  p99Ms: { audited: 90, unaudited: 85 },
  records,
  problems,
});

describe('buildAccessReport (bench/access.ts: restricted / full and audited / unaudited server CPU per request, target <= 1.10x)', () => {
  it('judges the ratio against the target, the bar itself included', () => {
    expect(restrictedOverFull(result(200, 210))).toBeCloseTo(1.05);
    expect(meetsTarget(result(200, 220))).toBe(true);
    expect(meetsTarget(result(200, 221))).toBe(false);
    expect(auditedOverUnaudited(audit(1000, 1080))).toBeCloseTo(1000 / 1080);
  });

  it('writes the machine, the date, both ratios with their rounds and the verdicts', () => {
    const report = buildAccessReport([result(200, 210)], audit(1100, 1000), conditions);
    expect(report.valid).toBe(true);
    expect(report.markdown).toContain('2025-01-02T03:04:05.000Z');
    expect(report.markdown).toContain('2 cores, Test CPU');
    expect(report.markdown).toMatch(/ 200 \/ 210 \| +\*\*1\.05x\*\* \(1\.04x-1\.06x\) \|.*\| PASS +\|/);
    expect(report.markdown).toMatch(/ 1100 \/ 1000 \| +\*\*1\.10x\*\* \(1\.08x-1\.12x\) \|.*\| +1\.000 \| PASS +\|/);
    expect(report.markdown).toContain('Valid run');
  });

  it('says that "without" is a proxy, and why there is no switch', () => {
    const { markdown } = buildAccessReport([result(200, 210)], audit(1000, 1000), conditions);
    expect(markdown).toContain('Recording cannot be turned off, and no switch is added for a benchmark');
    expect(markdown).toContain('Unaudited, a proxy for "without": `POST /graphql { locations(perPage: 20)');
    expect(markdown).toContain('25 patients and 25 locations');
  });

  it('misses the audit target above 1.10x, in a valid run', () => {
    const report = buildAccessReport([result(200, 210)], audit(1111, 1000), conditions);
    expect(report.valid).toBe(true);
    expect(report.markdown).toMatch(/\*\*1\.11x\*\*.*\| MISS +\|/);
  });

  it('is invalid when a side got non-2xx answers or CPU could not be read, and says which', () => {
    const refused = buildAccessReport([result(200, 210, ['restricted: 3 non-2xx (403: 3)'])], audit(1000, 1000), conditions);
    expect(refused.valid).toBe(false);
    expect(refused.markdown).toContain('rest restricted: 3 non-2xx (403: 3)');
    expect(refused.markdown).toContain('PASS (invalid run)');
    const blind = buildAccessReport([result(Number.NaN, Number.NaN)], audit(Number.NaN, Number.NaN), conditions);
    expect(blind.valid).toBe(false);
    expect(blind.markdown).toContain('rest: no server CPU measurement');
    expect(blind.markdown).toContain('audit: no server CPU measurement');
    const unaudited = buildAccessReport([result(200, 210)], audit(1000, 1000, undefined, ['unaudited: 2 non-2xx (503: 2)']), conditions);
    expect(unaudited.valid).toBe(false);
    expect(unaudited.markdown).toContain('audit unaudited: 2 non-2xx (503: 2)');
  });

  it('expects one record per answered audited request, up to one more per request in flight', () => {
    const answered = 10_000;
    const sent = 10_050;
    expect(recordsProblem(audit(1, 1, { written: answered, answered, sent }))).toBeNull();
    expect(recordsProblem(audit(1, 1, { written: sent, answered, sent }))).toBeNull();
    expect(recordsPerRequest(audit(1, 1, { written: answered, answered, sent }))).toBe(1);
    // Unrecorded reads, records of something else, and no requests at all are each a broken bench.
    for (const written of [answered - 1, sent + 1]) expect(recordsProblem(audit(1, 1, { written, answered, sent }))).toContain(`${written.toLocaleString('en-US')} records of reads written for 10,000`);
    expect(recordsProblem(audit(1, 1, { written: 0, answered: 0, sent: 0 }))).not.toBeNull();
    const short = buildAccessReport([result(200, 210)], audit(1000, 1000, { written: 5_000, answered, sent }), conditions);
    expect(short.valid).toBe(false);
    expect(short.markdown).toContain('INVALID RUN');
    expect(short.markdown).toContain('audit: 5,000 records of reads written for 10,000 audited requests answered (10,050 sent)');
  });
});
