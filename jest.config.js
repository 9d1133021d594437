/**
 * Three kinds of test, told apart by file name (one project each, so each can be run alone):
 *   unit  *.unit.test.ts  no I/O, no stack            npx jest --selectProjects unit
 *   int   *.int.test.ts   real PostgreSQL/Temporal/Kafka
 *   e2e   *.e2e.test.ts   HTTP against platform processes started by the test
 * scripts/test starts the stack once per run; test/support/global-setup.ts
 * migrates the test database and bundles the workflows once for int and e2e.
 */
const transform = { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] };
const common = { testEnvironment: 'node', transform, moduleFileExtensions: ['ts', 'js', 'json'] };
module.exports = {
  testTimeout: 120000,
  // The long files first on any machine, also one without jest's cached durations (CI's clean clone).
  testSequencer: '<rootDir>/test/support/sequencer.js',
  // On 2 cores jest runs every file in one process, and the Temporal SDK's native runtime (created by the first
  // NativeConnection; --detectOpenHandles shows it as a "neon threadsafe function") keeps a process alive until it is
  // shut down, which cannot be done per test file. Exit when the tests are done.
  // JEST_NO_FORCE_EXIT=1 with --detectOpenHandles lists any other handle left open.
  forceExit: process.env.JEST_NO_FORCE_EXIT !== '1',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/**/*.unit.test.ts'] },
    {
      ...common,
      displayName: 'int',
      testMatch: ['<rootDir>/test/**/*.int.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
    },
    // Only under scripts/faults (npm run test:faults): it needs the private stack that script starts.
    ...(process.env.FAULTS_STACK === '1'
      ? [
          {
            ...common,
            displayName: 'faults',
            testMatch: ['<rootDir>/test/**/*.faults.test.ts'],
            globalSetup: '<rootDir>/test/support/global-setup.ts',
          },
        ]
      : []),
  ],
};
