import { loadConfig } from '../../gateway/config';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';

const html = { accept: 'text/html,*/*;q=0.8' };

describe('the GRAPHIQL setting', () => {
  it('is on by default, off with 0, and a bad value is a start-up problem', () => {
    expect(loadConfig({}).graphiql).toBe(true);
    expect(loadConfig({ GRAPHIQL: '0' }).graphiql).toBe(false);
    expect(() => loadConfig({ GRAPHIQL: 'maybe' })).toThrow(/GRAPHIQL must be 1 or 0/);
  });

  describe('GRAPHIQL=0', () => {
    let app: InProcessApp;
    beforeAll(async () => {
      app = await startInProcessApp({ GRAPHIQL: '0' });
    });
    afterAll(() => app?.close());

    it('a browser GET /graphql is the API 422 again, and the assets are gone', async () => {
      const page = await fetch(`${app.url}/graphql`, { headers: html });
      expect(page.status).toBe(422);
      const refusal = (await page.json()) as { errors: { extensions: { code: string; validation: { loc: string[] }[] } }[] };
      expect(refusal.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(refusal.errors[0].extensions.validation[0].loc).toEqual(['header', 'tenant']);
      const script = await fetch(`${app.url}/graphiql/init.js`);
      expect(script.status).toBe(404);
      await script.arrayBuffer();
    });
  });
});
