import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');

describe('the committed client event and error code types', () => {
  it('are what libs/contracts generates now (node scripts/event-types.js regenerates them)', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts/event-types.js'), '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  }, 120_000);
});
