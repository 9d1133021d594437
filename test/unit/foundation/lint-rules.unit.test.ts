/** The workflow determinism rules are enforced by ESLint: prove they fire. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');

// ESLint runs as its own process (its config loader needs native dynamic import, which jest's VM lacks).
async function lintAs(file: string, code: string): Promise<string[]> {
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/eslint/bin/eslint.js'), '--stdin', '--stdin-filename', file, '--format', 'json'], { cwd: root, input: code, encoding: 'utf8' });
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
    expect(await lintAs('workflows/ok.ts', `import type { Activities } from '../activities';\nexport type A = Activities;\n`)).toEqual([]);
    expect(await lintAs('workflows/bad2.ts', `import { createActivities } from '../activities';\nexport const c = createActivities;\n`)).toContain('@typescript-eslint/no-restricted-imports');
  });

  it('the same code is fine outside workflows/', async () => {
    expect(await lintAs('infra/ok.ts', `import fs from 'node:fs';\nexport const a = Date.now() + Math.random();\nexport const b = fs;\n`)).toEqual([]);
  });
});
