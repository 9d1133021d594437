/**
 * Generated clients (issue 33, item 3): what an integrator does with the platform's OpenAPI document. From the
 * document the running platform serves (GET /openapi.json), with each generator's default settings:
 *   - TypeScript: openapi-typescript writes the types, openapi-fetch calls the API; tsc --strict finds no error;
 *   - Python: openapi-python-client writes a package; mypy finds no error;
 * and one flow through each client against the platform: who am I (GET /v1/me), a social post, blog research
 * started and polled to completion, and the usage of the month. The flows use only what the generated code types.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FullPlatform, PlatformUser, startFullPlatform } from '../../support/full-platform';
import { call } from '../../support/http';

jest.setTimeout(15 * 60_000);

const ROOT = path.resolve(__dirname, '../../..');
const BIN = path.join(ROOT, 'node_modules/.bin');
const VENV = path.join(ROOT, '.tools/venv/bin');

/** Runs a tool; its output comes back, and a failure shows what the tool said. */
function run(cmd: string, args: string[], opts: { cwd: string; env?: Record<string, string> }) {
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    encoding: 'utf8',
    timeout: 10 * 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}`, stdout: r.stdout ?? '' };
}

const TS_FLOW = `import createClient from 'openapi-fetch';
import type { paths } from './schema';

const client = createClient<paths>({
  baseUrl: process.env.BASE!,
  headers: { authorization: \`Bearer \${process.env.KEY}\` },
});

async function main(): Promise<void> {
  const me = await client.GET('/v1/me');
  if (!me.data) throw new Error(\`GET /v1/me answered \${me.response.status}\`);
  const userId: string = me.data.data.user_id;

  const post = await client.POST('/api/socialnet-writer/post/generate', {
    body: { topic: 'five habits of calm remote teams' },
  });
  if (!post.data || !('text' in post.data)) throw new Error(\`the post answered \${post.response.status}\`);
  const text: string = post.data.text;

  const started = await client.POST('/api/blog/research/start', {
    body: { topic: 'remote team rituals', keywords: ['remote work'] },
  });
  if (!started.data) throw new Error(\`research start answered \${started.response.status}\`);
  const taskId: string = started.data.task_id;
  let status: string = started.data.status;
  for (let i = 0; i < 480 && status !== 'completed'; i++) {
    const s = await client.GET('/api/blog/research/status/{task_id}', { params: { path: { task_id: taskId } } });
    if (!s.data) throw new Error(\`research status answered \${s.response.status}\`);
    status = s.data.status;
    if (status === 'failed' || status === 'cancelled') throw new Error(\`research \${status}\`);
    if (status !== 'completed') await new Promise((r) => setTimeout(r, 500));
  }

  const usage = await client.GET('/api/subscription/usage/{user_id}', { params: { path: { user_id: userId } } });
  if (!usage.data) throw new Error(\`usage answered \${usage.response.status}\`);
  const period: string = usage.data.data.billing_period;
  process.stdout.write(JSON.stringify({ userId, text, research: status, period }));
}

main().catch((e: unknown) => {
  process.stderr.write(\`\${String(e)}\\n\`);
  process.exit(1);
});
`;

const PY_FLOW = `"""One flow through the generated Python client (default settings of openapi-python-client)."""
import json
import os
import time

from ai_content_platform_api_client import AuthenticatedClient
from ai_content_platform_api_client.api.blog_writer import (
    get_api_blog_research_status_task_id,
    post_api_blog_research_start,
)
from ai_content_platform_api_client.api.developer import get_v1_me
from ai_content_platform_api_client.api.social_network_writer import post_api_socialnet_writer_post_generate
from ai_content_platform_api_client.api.subscription import get_api_subscription_usage_user_id
from ai_content_platform_api_client.models import (
    BlogResearchResult,
    BlogResearchStatus,
    GetApiSubscriptionUsageUserIdResponse200,
    GetV1MeResponse200,
    PostApiBlogResearchStartBody,
    PostApiBlogResearchStartResponse200,
    PostApiSocialnetWriterPostGenerateBody,
    WriterPostResult,
)


def main() -> None:
    client = AuthenticatedClient(base_url=os.environ["BASE"], token=os.environ["KEY"], timeout=None)
    me = get_v1_me.sync(client=client)
    assert isinstance(me, GetV1MeResponse200), me
    user_id = me.data.user_id

    post = post_api_socialnet_writer_post_generate.sync(
        client=client, body=PostApiSocialnetWriterPostGenerateBody(topic="five habits of calm remote teams")
    )
    assert isinstance(post, WriterPostResult), post
    text = post.text

    started = post_api_blog_research_start.sync(
        client=client, body=PostApiBlogResearchStartBody(topic="remote team rituals", keywords=["remote work"])
    )
    assert isinstance(started, PostApiBlogResearchStartResponse200), started
    status = "started"
    record: BlogResearchStatus | None = None
    for _ in range(480):
        s = get_api_blog_research_status_task_id.sync(task_id=started.task_id, client=client)
        assert isinstance(s, BlogResearchStatus), s
        record = s
        status = s.status.value
        if status in ("completed", "failed", "cancelled"):
            break
        time.sleep(0.5)
    # A completed task's result is a typed object (the task catalogue's BlogResearchResult).
    assert record is not None
    assert status != "completed" or (
        isinstance(record.result, BlogResearchResult) and isinstance(record.result.sources, list)
    ), record

    usage = get_api_subscription_usage_user_id.sync(user_id=user_id, client=client)
    assert isinstance(usage, GetApiSubscriptionUsageUserIdResponse200), usage
    print(json.dumps({"userId": user_id, "text": text, "research": status, "period": usage.data.billing_period}))


if __name__ == "__main__":
    main()
`;

describe('clients generated from the served OpenAPI document', () => {
  let P: FullPlatform;
  let A: PlatformUser;
  let dir: string;
  const month = new Date().toISOString().slice(0, 7);

  beforeAll(async () => {
    // Generating routes wait for their result (as by default), so the post answers 200 with the piece.
    P = await startFullPlatform('gen-clients', { API_TASK_WAIT_MS: '25000' });
    A = await P.user('clients');
    dir = mkdtempSync(path.join(tmpdir(), 'clients-'));
    const doc = await call(`${P.base}/openapi.json`);
    expect(doc.status).toBe(200);
    writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(doc.body));
  });
  afterAll(async () => {
    await P?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const expectFlow = (stdout: string) => {
    const got = JSON.parse(stdout) as { userId: string; text: string; research: string; period: string };
    expect(got).toEqual({ userId: A.userId, text: expect.any(String), research: 'completed', period: month });
    expect(got.text.toLowerCase()).toContain('remote');
  };

  it('TypeScript (openapi-typescript + openapi-fetch): tsc --strict finds no error, and the flow runs', () => {
    // An integrator's package: its own folder (no redocly.yaml of this project there), the two packages installed
    // (here: this project's node_modules, linked in, where both are dev dependencies).
    const ts = path.join(dir, 'ts');
    mkdirSync(ts);
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(ts, 'node_modules'));
    const gen = run(
      path.join(BIN, 'openapi-typescript'),
      [path.join(dir, 'openapi.json'), '-o', path.join(ts, 'schema.d.ts')],
      { cwd: ts },
    );
    expect([gen.status, gen.out]).toEqual([0, expect.stringContaining('schema.d.ts')]);
    writeFileSync(path.join(ts, 'flow.ts'), TS_FLOW);
    // Resolved from the project's node_modules (openapi-fetch is a dev dependency), as an integrator's package would.
    const tsc = run(
      path.join(BIN, 'tsc'),
      [
        '--noEmit',
        '--strict',
        '--target',
        'es2022',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--types',
        'node',
        'flow.ts',
      ],
      { cwd: ts },
    );
    expect([tsc.status, tsc.out]).toEqual([0, '']);
    const flow = run(process.execPath, ['--import', 'tsx', 'flow.ts'], {
      cwd: ts,
      env: { BASE: P.base, KEY: A.key },
    });
    expect([flow.status, flow.status === 0 ? '' : flow.out]).toEqual([0, '']);
    expectFlow(flow.stdout);
  });

  it('Python (openapi-python-client, default settings): mypy finds no error, and the flow runs', () => {
    const py = path.join(dir, 'py');
    // The venv on PATH: the generator formats its output with ruff (installed beside it) when it finds it.
    const gen = run(
      path.join(VENV, 'openapi-python-client'),
      ['generate', '--path', path.join(dir, 'openapi.json'), '--output-path', py],
      { cwd: dir, env: { PATH: `${VENV}:${process.env.PATH}` } },
    );
    expect([gen.status, gen.status === 0 ? '' : gen.out]).toEqual([0, '']);
    expect(existsSync(path.join(py, 'ai_content_platform_api_client', 'client.py'))).toBe(true);
    writeFileSync(path.join(py, 'flow.py'), PY_FLOW);
    const mypy = run(path.join(VENV, 'mypy'), ['--no-incremental', 'ai_content_platform_api_client', 'flow.py'], {
      cwd: py,
    });
    expect([mypy.status, mypy.out]).toEqual([0, expect.stringMatching(/^Success: no issues found/)]);
    const flow = run(path.join(VENV, 'python'), ['flow.py'], {
      cwd: py,
      env: { BASE: P.base, KEY: A.key, PYTHONPATH: py },
    });
    expect([flow.status, flow.status === 0 ? '' : flow.out]).toEqual([0, '']);
    expectFlow(flow.stdout);
  });
});
