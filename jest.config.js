const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];
const moduleNameMapper = { '^@app/([a-z-]+)$': '<rootDir>/libs/$1/src' };
// content-disposition 3 (used by @fastify/static for the /docs page) and jose 6 (SDK client tokens) ship ESM only;
// compile them for Jest.
const base = {
  transform: { '^.+\\.ts$': swc, '/node_modules/(content-disposition|jose)/.+\\.js$': swc },
  transformIgnorePatterns: ['/node_modules/(?!(content-disposition|jose)/)'],
  moduleNameMapper,
  testEnvironment: 'node',
};

module.exports = {
  // A root option: Jest does not take testTimeout per project.
  testTimeout: 60_000,
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts', '<rootDir>/test/deploy/**/*.spec.ts'] },
    {
      ...base,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
