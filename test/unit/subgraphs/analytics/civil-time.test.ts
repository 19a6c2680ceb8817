import { parseBound, resolveRelative, todayIn } from '../../../../subgraphs/analytics/query/civil-time';

// A Wednesday; 02:30 UTC is still Tuesday evening in New York.
const NOW = new Date('2026-04-15T02:30:00Z');

describe('civil time: bounds and relative ranges', () => {
  it('reads dates as calendar days, offset-less date-times as wall clocks and the rest as instants', () => {
    expect(parseBound('2026-02-28')).toEqual({ kind: 'date', date: '2026-02-28' });
    expect(parseBound('2026-02-28T09:05')).toEqual({ kind: 'local', value: '2026-02-28T09:05:00.000' });
    expect(parseBound('2026-02-28 09:05:07.123456')).toEqual({ kind: 'local', value: '2026-02-28T09:05:07.123' });
    expect(parseBound('2026-02-28T09:05:07Z')).toEqual({ kind: 'instant', value: '2026-02-28T09:05:07Z' });
    expect(parseBound('2026-02-28T09:05:07+05:30')).toEqual({ kind: 'instant', value: '2026-02-28T09:05:07+05:30' });
    for (const bad of ['2026-02-30', '2026-13-01', '28/02/2026', '2026-02-28T25:00', 'yesterday', "2026-01-01'; drop table x; --", '', '0000-01-01', '2026-01-01T00:00+20:00']) {
      expect(parseBound(bad)).toBeNull();
    }
  });

  it("resolves today in the zone's calendar", () => {
    expect(todayIn('UTC', NOW)).toBe('2026-04-15');
    expect(todayIn('America/New_York', NOW)).toBe('2026-04-14');
  });

  it.each([
    ['today', ['2026-04-15', '2026-04-15']],
    ['yesterday', ['2026-04-14', '2026-04-14']],
    ['This Week', ['2026-04-13', '2026-04-19']],
    ['last week', ['2026-04-06', '2026-04-12']],
    ['this month', ['2026-04-01', '2026-04-30']],
    ['last month', ['2026-03-01', '2026-03-31']],
    ['next month', ['2026-05-01', '2026-05-31']],
    ['this quarter', ['2026-04-01', '2026-06-30']],
    ['last quarter', ['2026-01-01', '2026-03-31']],
    ['this year', ['2026-01-01', '2026-12-31']],
    ['last year', ['2025-01-01', '2025-12-31']],
    ['last 7 days', ['2026-04-08', '2026-04-14']],
    ['last 12 months', ['2025-04-01', '2026-03-31']],
    ['last  2  quarters', ['2025-10-01', '2026-03-31']],
    ['next 2 weeks', ['2026-04-20', '2026-05-03']],
  ])('%s (UTC)', (phrase, range) => {
    expect(resolveRelative(phrase, 'UTC', NOW)).toEqual(range);
  });

  it('uses the zone for "today" and refuses what it does not know', () => {
    expect(resolveRelative('today', 'America/New_York', NOW)).toEqual(['2026-04-14', '2026-04-14']);
    expect(resolveRelative('last 1 month', 'Pacific/Kiritimati', new Date('2026-03-31T12:00:00Z'))).toEqual(['2026-03-01', '2026-03-31']);
    for (const phrase of ['last 0 days', 'last fortnight', 'since monday', 'last 7 days; drop table x', 'last 9999 years', 'next 9999 years']) expect(resolveRelative(phrase, 'UTC', NOW)).toBeNull();
  });
});
