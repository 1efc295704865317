'use strict';
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const { groups } = require('./groups');

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Jest's own order (a file that failed last time first, then the longest by the last run's times, else the
 * largest), where a group's file (test/support/groups.js) without a timing yet counts as large as its cases
 * together, so that it starts early instead of ending the run on one worker. It only orders: every test file
 * Jest found runs.
 */
class GroupingSequencer extends Sequencer {
  sort(tests) {
    const cases = new Map(groups().map((g) => [path.join(ROOT, g.file), g.cases.map((c) => path.join(ROOT, c))]));
    const size = (t) => {
      const files = cases.get(t.path) ?? [t.path];
      return files.reduce((sum, f) => sum + (t.context.hasteFS.getSize(f) ?? 0), 0);
    };
    const sorted = [...tests];
    for (const t of sorted) t.duration = this.time(t);
    return sorted.sort((a, b) => {
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
