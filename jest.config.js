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
// content-disposition 3 (used by @fastify/static for the /docs page) ships ESM only; compile it for Jest.
const base = {
  transform: { '^.+\\.ts$': swc, '/node_modules/content-disposition/.+\\.js$': swc },
  transformIgnorePatterns: ['/node_modules/(?!content-disposition/)'],
  moduleNameMapper,
  testEnvironment: 'node',
};

module.exports = {
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts', '<rootDir>/test/deploy/**/*.spec.ts'] },
    {
      ...base,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      testTimeout: 60_000,
    },
  ],
};
