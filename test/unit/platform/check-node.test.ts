import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

// `npm start` and `npm test` run platform/check-node.cjs first (package.json's prestart/pretest).
// The Node it runs on is made to report another version by a preload, so the refusal is tested on the Node at hand.
const script = resolve(__dirname, '../../../platform/check-node.cjs');
const asVersion = (version: string) =>
  spawnSync(process.execPath, ['-e', `Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '${version}' } }); require(${JSON.stringify(script)})`], { encoding: 'utf8' });

describe('the Node version check before npm start and npm test', () => {
  it('refuses Node 20 with one line naming the version needed and how to get it', () => {
    const run = asVersion('20.20.2');
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^Node >=24 is needed; this is Node 20\.20\.2\. Install Node 24 LTS/);
  });

  it('lets the supported Node through silently', () => {
    const run = asVersion('24.21.0');
    expect([run.status, run.stderr, run.stdout]).toEqual([0, '', '']);
  });

  it('is hooked before npm start and npm test', () => {
    const { scripts } = require('../../../package.json');
    expect([scripts.prestart, scripts.pretest]).toEqual(['node platform/check-node.cjs', 'node platform/check-node.cjs']);
  });
});
