/**
 * The platform on a current Node.js LTS (issue 33, item 6): every process — worker, relay, projector, API — runs on
 * the Node.js that scripts/test fetches from the npm registry (PLATFORM_NODE_LTS, scripts/lib.sh `ensure_node_lts`),
 * while the rest of the suite runs on the machine's Node.js 20. One flow through each kind of work: a generation task
 * polled to completion (worker, relay, projector, task projection), an image through sharp (the image studio), and
 * a short video plan rendered with ffmpeg on the render queue.
 */
import { execFileSync } from 'node:child_process';
import { readlinkSync, realpathSync } from 'node:fs';
import {
  expectStatus,
  FullPlatform,
  PlatformUser,
  request,
  startFullPlatform,
  waitForTask,
} from '../../support/full-platform';
import { noise } from '../../support/images';
import { waitFor } from '../../support/wait';

jest.setTimeout(10 * 60_000);

const NODE = process.env.PLATFORM_NODE_LTS;

describe('the whole platform on the Node.js LTS', () => {
  let P: FullPlatform;
  let A: PlatformUser;
  beforeAll(async () => {
    if (!NODE) throw new Error('PLATFORM_NODE_LTS is not set: run this test through scripts/test, which fetches it');
    P = await startFullPlatform('node-lts', { PLATFORM_NODE: NODE });
    A = await P.user('lts');
  });
  afterAll(() => P?.stop());

  const req = (method: string, p: string, json?: unknown) => request(P.base, A.key, method, p, { json });

  it('runs every process on that Node.js', async () => {
    const want = realpathSync(NODE!);
    expect(P.processes().map((p) => [p.name, readlinkSync(`/proc/${p.pid}/exe`)])).toEqual(
      ['temporal-worker', 'relay', 'projector', 'api'].map((n) => [n, want]),
    );
    // Each background process reports its release in its heartbeat.
    let seen: Record<string, string | undefined> = {};
    await waitFor(
      'a heartbeat of each background process',
      async () => {
        const rows = (await P.schema.db('platform_processes').select('process', 'details')) as {
          process: string;
          details: { node?: string };
        }[];
        seen = Object.fromEntries(rows.map((r) => [r.process, r.details.node]));
        return ['temporal-worker', 'relay', 'projector'].every((n) => seen[n]);
      },
      60_000,
      500,
    ).catch(() => undefined);
    const version = execFileSync(NODE!, ['--version'], { encoding: 'utf8' });
    expect(seen).toEqual({ 'temporal-worker': version.trim(), relay: version.trim(), projector: version.trim() });
  });

  it('generates a post through a task, processes an image with sharp and renders a short video with ffmpeg', async () => {
    const gen = (
      await expectStatus(
        req('POST', '/v1/content/generate', {
          type: 'blog_post',
          topic: 'morning routines for remote teams',
          length: 'short',
        }),
        202,
      )
    ).body.data;
    const done = await waitForTask(P.base, `/v1/tasks/${gen.task_id}`, A.key, 240_000, P.explain);
    const content = (await expectStatus(req('GET', `/v1/content/${done.result.content_id}`), 200)).body.data;
    expect(JSON.stringify(content).toLowerCase()).toContain('remote');

    const up = (
      await expectStatus(
        req('POST', '/api/image-studio/upscale', {
          image_base64: (await noise(24, 24, 7)).toString('base64'),
          mode: 'fast',
        }),
        200,
      )
    ).body;
    expect(String(up.image_url)).toMatch(/\.png$/);

    const plan = (
      await expectStatus(
        req('POST', '/api/videonet/plan', { topic: 'a calmer morning', format: 'short', duration_seconds: 15 }),
        201,
      )
    ).body;
    const render = (
      await expectStatus(req('POST', '/api/videonet/render', { plan_id: plan.plan_id, resolution: '480p' }), 202)
    ).body;
    const video = await waitForTask(P.base, `/api/videonet/render/${render.task_id}`, A.key, 240_000, P.explain);
    expect(video.result).toMatchObject({ video_codec: 'h264', audio_codec: 'aac' });
  });
});
