// ts-jest in transpile-only mode (isolatedModules): fast, and decorator metadata is emitted as tsc does.
// (No @swc/jest: its native binaries for other platforms are missing from the registry this project installs
// from, which makes `npm ci` refuse the lockfile.)
const ts = [
  'ts-jest',
  {
    diagnostics: false,
    tsconfig: {
      isolatedModules: true,
      allowJs: true,
      module: 'commonjs',
      target: 'ES2022',
      esModuleInterop: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    },
  },
];
const moduleNameMapper = { '^@app/([a-z-]+)$': '<rootDir>/libs/$1/src' };
// content-disposition 3 (used by @fastify/static for the /docs page), jose 6 (SDK client tokens) and otplib's
// @scure/base and @noble/hashes (dashboard TOTP) ship ESM only; compile them for Jest.
const ESM_ONLY = 'content-disposition|jose|@scure/base|@noble/hashes';
const base = {
  transform: { '^.+\\.ts$': ts, [`/node_modules/(${ESM_ONLY})/.+\\.js$`]: ts },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY})/)`],
  moduleNameMapper,
  // Jest's node environment, where a process warning (a library's deprecation, Fastify's FSTWRN004) fails the
  // test or the file it came in; its allow-list is empty.
  testEnvironment: '<rootDir>/test/support/warnings-environment.js',
};

module.exports = {
  // A root option: Jest does not take testTimeout per project.
  testTimeout: 60_000,
  // Two workers, as many as the 2-core development host has cores: each has its own nats-server (global setup)
  // and every stack its own databases, so test files run side by side as they would one after the other.
  maxWorkers: 2,
  // Exit when the run (and global teardown) is done: a NATS reconnect timer or pg pool left by a failed test
  // must not keep CI waiting until its time limit.
  forceExit: true,
  // Orders the files only; a group's file (test/support/groups.js: a folder's *.e2e-case.ts in one Jest file)
  // with no timing yet starts as early as its cases' size says.
  testSequencer: '<rootDir>/test/support/sequencer.js',
  projects: [
    {
      ...base,
      displayName: 'unit',
      // test/payments/connectors: connectors against their local provider doubles, no database or broker.
      testMatch: [
        '<rootDir>/{apps,libs,bench,clients}/**/*.spec.ts',
        '<rootDir>/test/deploy/**/*.spec.ts',
        '<rootDir>/test/payments/connectors/**/*.spec.ts',
      ],
    },
    {
      ...base,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
