import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeSection } from '../../../bench/lib/results-file';

describe('writeSection (bench/RESULTS.md: each benchmark rewrites its own section, the hand-kept verdicts stay)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'results-file-'));
  const file = path.join(dir, 'RESULTS.md');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates the file with its header, replaces a section in place, keeps the text around it, appends a new one', () => {
    writeSection(file, 'tracing', '## Tracing\n\nfirst run', '# Benchmark results\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('# Benchmark results\n\n<!-- tracing:start -->\n## Tracing\n\nfirst run\n<!-- tracing:end -->\n');

    fs.appendFileSync(file, '\n**Verdict**: kept by hand.\n');
    writeSection(file, 'webhooks', '## Webhooks\n\nrun', 'unused header');
    writeSection(file, 'tracing', '## Tracing\n\nsecond run', 'unused header');
    expect(fs.readFileSync(file, 'utf8')).toBe(
      '# Benchmark results\n\n<!-- tracing:start -->\n## Tracing\n\nsecond run\n<!-- tracing:end -->\n\n**Verdict**: kept by hand.\n\n<!-- webhooks:start -->\n## Webhooks\n\nrun\n<!-- webhooks:end -->\n',
    );
  });
});
