'use strict';
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const { groups } = require('./groups');

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Jest's own order (a file that failed last time first, then the longest by the last run's times, else the
 * largest), with the groups of test/support/groups.js: when a group's file is in the run, its members run in it
 * and not again on their own; a group with no timing yet counts as large as its members together, so that it
 * starts early instead of ending the run on one worker.
 */
class GroupingSequencer extends Sequencer {
  sort(tests) {
    const byPath = new Map(groups().map((g) => [path.join(ROOT, g.file), g.members.map((m) => path.join(ROOT, m))]));
    const grouped = new Set(tests.flatMap((t) => byPath.get(t.path) ?? []));
    const kept = tests.filter((t) => !grouped.has(t.path));
    const size = (t) => {
      const files = byPath.get(t.path) ?? [t.path];
      return files.reduce((sum, f) => sum + (t.context.hasteFS.getSize(f) ?? 0), 0);
    };
    for (const t of kept) t.duration = this.time(t);
    return kept.sort((a, b) => {
      const failedA = this.hasFailed(a);
      if (failedA !== this.hasFailed(b)) return failedA ? -1 : 1;
      const timedA = a.duration != null;
      if (timedA !== (b.duration != null)) return timedA ? 1 : -1;
      if (timedA) return b.duration - a.duration;
      return size(b) - size(a);
    });
  }
}

module.exports = GroupingSequencer;
