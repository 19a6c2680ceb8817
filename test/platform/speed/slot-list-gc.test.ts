import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '../../..');

/**
 * What a server does per request with the structure that tracks requests in flight: 50 "requests"
 * at a time, each added, held across an event-loop turn, removed, 1.5 million in all. Counts the
 * full GCs this needs. Once a Set's table is in the old generation (its first full GC, early here),
 * the copies of its table keep each request alive through scavenges until the next full GC; a
 * SlotList does not (platform/speed/slot-list.ts). Measured: about 50 full GCs against 2-3.
 */
const PROBE = `
const { SlotList } = require('./dist/platform/speed/slot-list.js');
const { PerformanceObserver, constants } = require('node:perf_hooks');
const kind = process.argv[1];
const set = new Set();
const slots = new SlotList();
let major = 0;
const count = (entries) => { for (const entry of entries) if (entry.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++; };
const observer = new PerformanceObserver((list) => count(list.getEntries()));
observer.observe({ entryTypes: ['gc'] });
let n = 0;
async function requests() {
  while (n < 1500000) {
    const request = { n: n++, body: new Array(200).fill(n), context: { a: [1, 2, 3], b: 'x' + n } };
    let done;
    if (kind === 'set') { set.add(request); done = () => set.delete(request); }
    else { const slot = slots.add(request); done = () => slots.remove(slot); }
    await new Promise((resolve) => setImmediate(resolve));
    done();
  }
}
Promise.all(Array.from({ length: 50 }, requests)).then(() => { count(observer.takeRecords()); console.log(JSON.stringify({ major, n })); });
`;

async function fullGcs(kind: 'set' | 'slots'): Promise<number> {
  const { stdout } = await run(process.execPath, ['--max-semi-space-size=16', '-e', PROBE, kind], { cwd: ROOT });
  return (JSON.parse(stdout) as { major: number }).major;
}

describe('tracking requests in flight', () => {
  it('keeps no request alive through scavenges in a SlotList, as a Set in the old generation does', async () => {
    const [withSet, withSlots] = await Promise.all([fullGcs('set'), fullGcs('slots')]);
    // The control: the Set's churn fills the old generation with requests.
    expect(withSet).toBeGreaterThan(20);
    expect(withSlots).toBeLessThan(withSet / 10);
  });
});
