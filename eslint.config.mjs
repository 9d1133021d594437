// Lint rules. The workflows/ block enforces Temporal's determinism rules:
// no Node built-ins, no I/O packages, no Date.now()/Math.random() (the SDK
// replaces them inside workflows, but code should say workflow time explicitly),
// and activities imported as types only. The blocks after it encode the import
// directions of the layers (workers/ wires everything and has no block):
//   domain/      -> domain/ only
//   workflows/   -> @temporalio/workflow, domain/, workflows/, types of activities/
//   infra/       -> domain/, infra/
//   projections/ -> domain/, infra/ (through ports)
//   activities/  -> domain/, infra/ (through ports), projections/ (read queries)
//   api/         -> domain/, infra/ (through ports), projections/, workflows/index (+ types of workflows/*)
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

// Relative prefixes deep enough for every file (api/app.ts, api/blog/tasks.ts, api/kernel/envelopes/general.ts).
const UP = ['../', '../../', '../../../', '../../../../'];
/** Import patterns for the top-level modules `names` (e.g. 'api', 'infra/config') and everything under them, from any depth. */
const under = (...names) => names.flatMap((n) => UP.flatMap((up) => [`${up}${n}`, `${up}${n}/*`]));
/** Groups shared by api/, activities/ and projections/: event store through its port, no configuration. */
const portsOnly = [
  { group: under('infra/eventstore/postgres'), message: "Use the event store port: import from 'infra/eventstore'." },
  {
    group: under('infra/config'),
    allowTypeImports: true,
    message: 'No configuration here: take settings and adapters as arguments (built in workers/).',
  },
];

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
    // Rooms of one job (docs/architecture.md, "Placement"): no source file over 400 lines, comments and blank lines
    // included. Tests and their fixtures are not held to it.
    ignores: ['test/**'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({
            name,
            message: 'Workflow code must be deterministic: no Node built-ins (use an activity).',
          })),
          patterns: [
            {
              group: ['../activities', '../activities/*'],
              allowTypeImports: true,
              message: 'Workflows import only the types of activities.',
            },
            {
              group: [
                ...under('infra', 'api', 'projections', 'workers'),
                'knex',
                'pg',
                'kafkajs',
                'express',
                'pino',
                '@temporalio/client',
                '@temporalio/worker',
                '@temporalio/activity',
              ],
              message: 'Workflows may import only @temporalio/workflow and domain/.',
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'Date',
          property: 'now',
          message:
            'Use workflow time explicitly (the SDK makes Date deterministic, but not in helpers shared with activities).',
        },
        { object: 'Math', property: 'random', message: 'Use uuid4() or a seeded value from the workflow SDK.' },
        { object: 'process', message: 'No process access in workflows.' },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'No I/O in workflows.' },
        { name: 'setInterval', message: 'Use workflow sleep/condition.' },
        { name: 'require', message: 'Static imports only in workflows.' },
      ],
    },
  },
  {
    files: ['domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'domain/ is pure: no Node built-ins.' })),
          patterns: [
            {
              group: [
                ...under('infra', 'api', 'workflows', 'projections', 'activities', 'workers'),
                'knex',
                'pg',
                'kafkajs',
                'express',
              ],
              message: 'domain/ imports only domain/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['infra/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: under('api', 'workflows', 'projections', 'activities', 'workers'),
              message: 'infra/ imports only domain/ and infra/ (let workers/ pass in what it needs).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['projections/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: under('api', 'workflows', 'activities', 'workers'),
              message: 'projections/ import only domain/ and infra/.',
            },
            ...portsOnly,
          ],
        },
      ],
    },
  },
  {
    files: ['activities/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: under('api', 'workflows', 'workers'),
              message: 'activities/ import only domain/, infra/ and projections/ (read queries).',
            },
            ...portsOnly,
          ],
        },
      ],
    },
  },
  {
    files: ['api/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: under('activities', 'workers'),
              message: 'api/ never imports activities/ or workers/: start a workflow through api/kernel/workflows.ts.',
            },
            {
              group: UP.flatMap((up) => [`${up}workflows/*`, `!${up}workflows/index`]),
              allowTypeImports: true,
              message:
                "Import workflow functions from the workflows index ('workflows'); other workflows/ files as types only.",
            },
            ...portsOnly,
          ],
        },
      ],
    },
  },
  {
    // One write path (docs/architecture.md, "Writing events"): routes and activities write events through a decider —
    // infra/eventstore/command.ts handleCommand/handleCommands (read, fold, decide, append at the version read) — or,
    // from an activity, appendOnce with the activity's key; never the raw append of the store.
    files: ['api/**/*.ts', 'activities/**/*.ts', 'projections/**/*.ts'],
    ignores: ['api/kernel/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(append|appendMany)$/]",
          message:
            'Write events through a decider: handleCommand / handleCommands (infra/eventstore/command.ts), or appendOnce from an activity.',
        },
      ],
    },
  },
);
