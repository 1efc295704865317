'use strict';
/**
 * Node flags every app runs with, wherever it is started: `npm start`, the bench, and the Docker image
 * (Dockerfile `ENV NODE_OPTIONS`, checked equal to this by test/deploy). V8 otherwise lets the old space grow
 * lazily towards a limit derived from the machine's memory: under load an app reached 250-270 MB RSS with a
 * live heap of about 50 MB. A 128 MB old space keeps every app under 200 MB RSS at full load at no
 * measurable CPU cost (docs/performance.md). Set NODE_OPTIONS yourself to override it.
 */
const APP_NODE_OPTIONS = '--max-old-space-size=128';

/** The environment for an app's process: NODE_OPTIONS defaults to APP_NODE_OPTIONS. */
const withAppNodeOptions = (env) => ({ ...env, NODE_OPTIONS: env.NODE_OPTIONS || APP_NODE_OPTIONS });

module.exports = { APP_NODE_OPTIONS, withAppNodeOptions };
