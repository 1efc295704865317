import { runGroup } from '../support/run-group';

// This folder's test files that test/support/groups.js lists, in one Jest file (one module registry).
runGroup(__dirname);
