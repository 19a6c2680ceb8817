import { loadConfig } from '../../gateway/config';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';

describe('the CONSOLE setting', () => {
  it('is on by default, off with 0, and a bad value is a start-up problem', () => {
    expect(loadConfig({}).console).toBe(true);
    expect(loadConfig({ CONSOLE: '0' }).console).toBe(false);
    expect(() => loadConfig({ CONSOLE: 'maybe' })).toThrow(/CONSOLE must be 1 or 0/);
  });

  describe('CONSOLE=0', () => {
    let app: InProcessApp;
    beforeAll(async () => {
      app = await startInProcessApp({ CONSOLE: '0' });
    });
    afterAll(() => app?.close());

    it('/console and its files are the JSON 404 of any unknown path', async () => {
      for (const path of ['/console', '/console/js/main.js', '/console/vendor/echarts.js']) {
        const res = await fetch(`${app.url}${path}`);
        expect([path, res.status]).toEqual([path, 404]);
        expect(await res.json()).toEqual({ detail: 'Not Found' });
      }
    });
  });
});
