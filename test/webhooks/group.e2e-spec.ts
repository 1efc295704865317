import { runGroup } from '../support/run-group';

// This folder's cases (*.e2e-case.ts, found by name: test/support/groups.js), in one Jest file (one module registry).
runGroup(__dirname);
