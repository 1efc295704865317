import { join, relative } from 'node:path';

interface Group {
  folder: string;
  timeoutMs: number;
  members: string[];
}
const { groups } = require('./groups') as { groups(): Group[] };

const ROOT = join(__dirname, '..', '..');

/**
 * Runs the test files test/support/groups.js lists for `folder`, each inside a `describe` named after its path,
 * so its hooks stay its own. Every test of the group gets the group's timeout.
 */
export function runGroup(folder: string): void {
  const group = groups().find((g) => g.folder === relative(ROOT, folder));
  if (!group) throw new Error(`test/support/groups.js has no group for ${relative(ROOT, folder)}`);
  for (const member of group.members) {
    describe(member, () => {
      require(join(ROOT, member));
    });
  }
  // After the members: a member's own jest.setTimeout would otherwise hold for the whole file.
  jest.setTimeout(group.timeoutMs);
}
