/** The workflow determinism rules and the layers' import directions are enforced by ESLint: prove they fire. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const RESTRICTED = '@typescript-eslint/no-restricted-imports';

// ESLint runs as its own process (its config loader needs native dynamic import, which jest's VM lacks).
async function lintAs(file: string, code: string): Promise<string[]> {
  const r = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/eslint/bin/eslint.js'), '--stdin', '--stdin-filename', file, '--format', 'json'],
    { cwd: root, input: code, encoding: 'utf8' },
  );
  const [result] = JSON.parse(r.stdout) as { messages: { ruleId: string | null; message: string }[] }[];
  return result.messages.map((m) => m.ruleId ?? m.message);
}

describe('workflow lint rules', () => {
  it('forbid Node built-ins, I/O packages, Date.now and Math.random in workflows/', async () => {
    const rules = await lintAs(
      'workflows/bad.ts',
      `import fs from 'node:fs';\nimport { Kafka } from 'kafkajs';\nexport const a = Date.now() + Math.random();\nexport const b = [fs, Kafka];\n`,
    );
    expect(rules.filter((r) => r === '@typescript-eslint/no-restricted-imports')).toHaveLength(2);
    expect(rules.filter((r) => r === 'no-restricted-properties')).toHaveLength(2);
  });

  it('allow type-only imports of activities and forbid value imports', async () => {
    expect(
      await lintAs(
        'workflows/ok.ts',
        `import type { Activities } from '../activities';\nexport type A = Activities;\n`,
      ),
    ).toEqual([]);
    expect(
      await lintAs(
        'workflows/bad2.ts',
        `import { createActivities } from '../activities';\nexport const c = createActivities;\n`,
      ),
    ).toContain('@typescript-eslint/no-restricted-imports');
  });

  it('the same code is fine outside workflows/', async () => {
    expect(
      await lintAs(
        'infra/ok.ts',
        `import fs from 'node:fs';\nexport const a = Date.now() + Math.random();\nexport const b = fs;\n`,
      ),
    ).toEqual([]);
  });
});

// ---- Import directions of the layers -------------------------------------------------------------------------

/** One import statement linted as if it were the source of `file` (a path in the repository). */
interface Case {
  file: string;
  imp: string;
  forbidden: boolean;
}

/** Whether each case's import is reported by no-restricted-imports, in order. */
type Verdicts = boolean[];

// ESLint's Node API (new ESLint({ cwd }).lintText), in one child process for all cases, for the reason above.
const LINT_ALL = `
const { ESLint } = require('eslint');
const path = require('node:path');
let input = '';
process.stdin.on('data', (d) => (input += d)).on('end', async () => {
  const { cwd, cases } = JSON.parse(input);
  const eslint = new ESLint({ cwd });
  const out = [];
  for (const c of cases) {
    const [r] = await eslint.lintText(c.code, { filePath: path.join(cwd, c.file) });
    out.push(r.messages.map((m) => m.ruleId ?? 'fatal: ' + m.message));
  }
  process.stdout.write(JSON.stringify(out));
});
`;

function lintImports(cases: Case[]): { verdicts: Verdicts; fatal: string[] } {
  const code = (imp: string) => `${imp}\n`;
  const r = spawnSync(process.execPath, ['-e', LINT_ALL], {
    cwd: root,
    input: JSON.stringify({ cwd: root, cases: cases.map((c) => ({ file: c.file, code: code(c.imp) })) }),
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`eslint failed: ${r.stderr}`);
  const results = JSON.parse(r.stdout) as string[][];
  return {
    verdicts: results.map((ids) => ids.includes(RESTRICTED)),
    // Parse errors (no rule id) would make a probe pass vacuously; unused imports are expected and ignored.
    fatal: results.flatMap((ids, i) =>
      ids.filter((id) => id.startsWith('fatal: ')).map((id) => `${cases[i].file}: ${id}`),
    ),
  };
}

const bad = (file: string, imp: string): Case => ({ file, imp, forbidden: true });
const ok = (file: string, imp: string): Case => ({ file, imp, forbidden: false });

const CASES: Record<string, Case[]> = {
  'domain/': [
    bad('domain/x.ts', `import '../infra/logger';`),
    bad('domain/blog/x.ts', `import '../../projections/identity';`),
    bad('domain/blog/x.ts', `import type { Activities } from '../../activities';`),
    ok('domain/blog/x.ts', `import { FAILURES } from '../failures';`),
  ],
  'workflows/': [
    bad('workflows/x.ts', `import { getTask } from '../projections/task-status';`),
    bad('workflows/x.ts', `import '../projections';`),
    bad('workflows/x.ts', `import { createEventStore } from '../infra/eventstore';`),
    ok('workflows/x.ts', `import { FAILURES } from '../domain/failures';`),
    ok('workflows/x.ts', `import { proxyActivities } from '@temporalio/workflow';`),
    ok('workflows/x.ts', `import type { Activities } from '../activities';`),
  ],
  'infra/': [
    bad('infra/x.ts', `import { createApp } from '../api/app';`),
    bad('infra/db/x.ts', `import { getTask } from '../../projections/task-status';`),
    bad('infra/ai/x.ts', `import type { Activities } from '../../activities';`),
    bad('infra/x.ts', `import { blogWorkflow } from '../workflows';`),
    bad('infra/db/migrations/x.ts', `import '../../../workers/context';`),
    ok('infra/x.ts', `import { FAILURES } from '../domain/failures';`),
    ok('infra/eventstore/x.ts', `import { PostgresEventStore } from './postgres';`),
  ],
  'projections/': [
    bad('projections/x.ts', `import { createApp } from '../api/app';`),
    bad('projections/x.ts', `import '../workflows';`),
    bad('projections/x.ts', `import type { Activities } from '../activities';`),
    bad('projections/x.ts', `import '../workers/context';`),
    bad('projections/x.ts', `import { lastStoredCheckpoint } from '../infra/eventstore/postgres';`),
    bad('projections/x.ts', `import { loadConfig } from '../infra/config';`),
    ok('projections/x.ts', `import type { EventStore } from '../infra/eventstore';`),
    ok('projections/x.ts', `import { START } from '../infra/eventstore/port';`),
    ok('projections/x.ts', `import { EVENT_DEFINITIONS } from '../domain/events';`),
  ],
  'activities/': [
    bad('activities/x.ts', `import { createApp } from '../api/app';`),
    bad('activities/x.ts', `import { blogWorkflow } from '../workflows';`),
    bad('activities/x.ts', `import type { TaskInput } from '../workflows/task-runner';`),
    bad('activities/x.ts', `import '../workers/context';`),
    bad('activities/x.ts', `import { PostgresEventStore } from '../infra/eventstore/postgres';`),
    bad('activities/x.ts', `import { loadConfig } from '../infra/config';`),
    ok('activities/x.ts', `import { getTask } from '../projections/task-status';`),
    ok('activities/x.ts', `import type { EventStore } from '../infra/eventstore';`),
    ok('activities/x.ts', `import { FAILURES } from '../domain/failures';`),
  ],
  'api/': [
    ok('api/blog/tasks.ts', `import { blogResearchWorkflow } from '../../workflows';`),
    ok('api/app.ts', `import { blogResearchWorkflow } from '../workflows';`),
    ok('api/blog/tasks.ts', `import { blogResearchWorkflow } from '../../workflows/index';`),
    bad('api/blog/tasks.ts', `import { blogResearchWorkflow } from '../../workflows/blog';`),
    bad('api/app.ts', `import { blogResearchWorkflow } from '../workflows/blog';`),
    ok('api/blog/tasks.ts', `import type { TaskInput } from '../../workflows/blog';`),
    ok('api/blog/tasks.ts', `import { type TaskInput } from '../../workflows/task-runner';`),
    bad('api/blog/tasks.ts', `import { createActivities } from '../../activities';`),
    bad('api/kernel/envelopes/general.ts', `import type { Activities } from '../../../activities/tasks';`),
    bad('api/app.ts', `import '../workers/context';`),
    bad('api/blog/tasks.ts', `import { PostgresEventStore } from '../../infra/eventstore/postgres';`),
    bad(
      'api/kernel/envelopes/general.ts',
      `import type { PostgresEventStore } from '../../../infra/eventstore/postgres';`,
    ),
    bad('api/blog/tasks.ts', `import { loadConfig } from '../../infra/config';`),
    bad('api/app.ts', `import { loadConfig } from '../infra/config';`),
    ok('api/kernel/deps.ts', `import type { Config } from '../../infra/config';`),
    ok('api/blog/tasks.ts', `import { createEventStore } from '../../infra/eventstore';`),
    ok('api/blog/tasks.ts', `import { getTask } from '../../projections/task-status';`),
    ok('api/blog/tasks.ts', `import { FAILURES } from '../../domain/failures';`),
    ok('api/blog/tasks.ts', `import { startWorkflow } from '../kernel/workflows';`),
    ok('api/kernel/envelopes/general.ts', `import { startWorkflow } from '../workflows';`),
  ],
  'workers/': [
    ok('workers/x.ts', `import { createApp } from '../api/app';`),
    ok('workers/x.ts', `import { createActivities } from '../activities';`),
    ok('workers/dispatch/x.ts', `import { blogResearchWorkflow } from '../../workflows/blog';`),
    ok('workers/x.ts', `import { PostgresEventStore } from '../infra/eventstore/postgres';`),
    ok('workers/x.ts', `import { loadConfig } from '../infra/config';`),
  ],
};

describe('layer import directions', () => {
  const all = Object.values(CASES).flat();
  let linted: { verdicts: Verdicts; fatal: string[] };
  beforeAll(() => {
    linted = lintImports(all);
  });

  it('parse every probe', () => {
    expect(linted.fatal).toEqual([]);
  });

  it.each(Object.keys(CASES))('%s: forbidden imports are reported, allowed ones are not', (layer) => {
    const cases = CASES[layer];
    const start = all.indexOf(cases[0]);
    const got = cases.map((c, i) => `${c.file}: ${c.imp} -> ${linted.verdicts[start + i] ? 'forbidden' : 'allowed'}`);
    const want = cases.map((c) => `${c.file}: ${c.imp} -> ${c.forbidden ? 'forbidden' : 'allowed'}`);
    expect(got).toEqual(want);
    expect(cases.some((c) => c.forbidden) || layer === 'workers/').toBe(true);
    expect(cases.some((c) => !c.forbidden)).toBe(true);
  });
});
