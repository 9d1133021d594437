// Lint rules. The workflows/ block enforces Temporal's determinism rules:
// no Node built-ins, no I/O packages, no Date.now()/Math.random() (the SDK
// replaces them inside workflows, but code should say workflow time explicitly),
// and activities imported as types only.
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.tools/**', '.run/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflow code must be deterministic: no Node built-ins (use an activity).' })),
          patterns: [
            { group: ['../activities', '../activities/*'], allowTypeImports: true, message: 'Workflows import only the types of activities.' },
            { group: ['../infra/*', '../api/*', '../projections/*', '../workers/*', 'knex', 'pg', 'kafkajs', 'express', 'pino', '@temporalio/client', '@temporalio/worker', '@temporalio/activity'], message: 'Workflows may import only @temporalio/workflow and domain/.' },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Use workflow time explicitly (the SDK makes Date deterministic, but not in helpers shared with activities).' },
        { object: 'Math', property: 'random', message: 'Use uuid4() or a seeded value from the workflow SDK.' },
        { object: 'process', message: 'No process access in workflows.' },
      ],
      'no-restricted-globals': ['error', { name: 'fetch', message: 'No I/O in workflows.' }, { name: 'setInterval', message: 'Use workflow sleep/condition.' }, { name: 'require', message: 'Static imports only in workflows.' }],
    },
  },
  {
    files: ['domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'domain/ is pure: no Node built-ins.' })),
          patterns: [{ group: ['../../infra/*', '../infra/*', '../../api/*', '../api/*', 'knex', 'pg', 'kafkajs', 'express'], message: 'domain/ imports only domain/.' }],
        },
      ],
    },
  },
);
