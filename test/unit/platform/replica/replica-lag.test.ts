import { lagAcceptable, lagReading, nextInUse } from '../../../../platform/replica/replica-lag';
import { DEFAULT_REPLICA_MAX_LAG_MS, readReplicaSettings } from '../../../../platform/replica/replica-settings';

describe('the replica lag decision', () => {
  it('reads the probe row as the driver hands it: numeric as text, no row or no number as unknown', () => {
    expect(lagReading({ in_recovery: true, lag_seconds: '1.250000' })).toEqual({ lagSeconds: 1.25, inRecovery: true });
    expect(lagReading({ in_recovery: true, lag_seconds: null })).toEqual({ lagSeconds: null, inRecovery: true });
    expect(lagReading({ in_recovery: false, lag_seconds: 0 })).toEqual({ lagSeconds: 0, inRecovery: false });
    // The standby's clock a little ahead of the primary's is no negative lag.
    expect(lagReading({ in_recovery: true, lag_seconds: '-0.02' }).lagSeconds).toBe(0);
    expect(lagReading(undefined)).toEqual({ lagSeconds: null, inRecovery: false });
  });

  it('uses the replica up to the bound, not past it, and never with an unknown lag', () => {
    expect(lagAcceptable(0, 5_000)).toBe(true);
    expect(lagAcceptable(5, 5_000)).toBe(true);
    expect(lagAcceptable(5.001, 5_000)).toBe(false);
    expect(lagAcceptable(0, 0)).toBe(true);
    expect(lagAcceptable(null, 5_000)).toBe(false);
  });

  it('leaves a replica in use at the second reading past the bound in a row, comes back at the first within it', () => {
    // One reading past the bound (a quiet primary's single write being replayed) keeps it.
    expect(nextInUse(true, 1, 60, 5_000)).toBe(true);
    expect(nextInUse(true, 2, 60, 5_000)).toBe(false);
    expect(nextInUse(false, 1, 60, 5_000)).toBe(false);
    expect(nextInUse(false, 0, 0.5, 5_000)).toBe(true);
    // Unknown (a failed probe, nothing replayed yet): at once.
    expect(nextInUse(true, 0, null, 5_000)).toBe(false);
  });
});

describe('DATABASE_REPLICA_URL and REPLICA_MAX_LAG_MS', () => {
  const primary = { DATABASE_URL: 'postgres://app@db/app' };

  it('unset: no replica, the default bound, no problem', () => {
    const problems: string[] = [];
    expect(readReplicaSettings(primary, problems)).toEqual({ url: null, maxLagMs: DEFAULT_REPLICA_MAX_LAG_MS });
    expect(problems).toEqual([]);
  });

  it('reads a replica and a bound', () => {
    const problems: string[] = [];
    expect(readReplicaSettings({ ...primary, DATABASE_REPLICA_URL: ' postgresql://app@replica/app ', REPLICA_MAX_LAG_MS: '250' }, problems)).toEqual({ url: 'postgresql://app@replica/app', maxLagMs: 250 });
    expect(problems).toEqual([]);
  });

  it('lists every wrong value at once', () => {
    const problems: string[] = [];
    readReplicaSettings({ DATABASE_REPLICA_URL: 'mysql://replica/app', REPLICA_MAX_LAG_MS: '1.5' }, problems);
    expect(problems).toEqual([
      'DATABASE_REPLICA_URL must start with postgres:// or postgresql://',
      'DATABASE_REPLICA_URL needs DATABASE_URL (the embedded PostgreSQL has no replica)',
      'REPLICA_MAX_LAG_MS must be a whole number of milliseconds from 0 to 3600000 (got "1.5")',
    ]);
  });
});
