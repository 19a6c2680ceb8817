import { ConfigError, loadConfig } from '../../../gateway/config';

describe('configuration', () => {
  it('has working defaults for all-in-one mode', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ mode: 'all-in-one', port: 4000, databaseUrl: null, rateLimit: { points: 600, windowSeconds: 60 }, workers: 1 });
  });

  it('reads WEB_CONCURRENCY as the number of HTTP workers, 1 to 64', () => {
    expect(loadConfig({ WEB_CONCURRENCY: '2' }).workers).toBe(2);
    for (const bad of ['0', '65', 'two', '1.5']) {
      expect(() => loadConfig({ WEB_CONCURRENCY: bad })).toThrow(/WEB_CONCURRENCY must be a whole number from 1 to 64/);
    }
  });

  it('reports every problem at once', () => {
    try {
      loadConfig({ MODE: 'distributed', PORT: 'eighty', RATE_LIMIT_PER_WINDOW: '-1' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems;
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.stringContaining('PORT'),
          expect.stringContaining('RATE_LIMIT_PER_WINDOW'),
          expect.stringContaining('SUBGRAPH_TENANT_URL'),
          expect.stringContaining('INTERNAL_SECRET'),
          expect.stringContaining('DATABASE_URL'),
        ]),
      );
    }
  });
});
