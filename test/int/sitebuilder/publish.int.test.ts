/**
 * Publishing to the connected site on loopback: Markdown to rich content,
 * the cover downloaded (SSRF-checked) and uploaded, the draft with its SEO
 * data and idempotency marker, publish, the result with the post's id, URL
 * and SEO metadata; progress on the status route while the task runs;
 * drafts only; the builder's refusals worded; validation, 401/404/409/503.
 */
import { randomUUID } from 'node:crypto';
import { startTestApi, TestApi, bearer } from '../../support/api';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { testTemporal } from '../../support/env';
import { call } from '../../support/http';
import { taskStatusProjection } from '../../../projections/task-status';
import { sitebuilderConnectionsProjection } from '../../../projections/sitebuilder-connections';
import { MARKER_META } from '../../../infra/sitebuilder/blog-api';
import { FakeBuilder, startFakeBuilder } from '../../support/sitebuilder/fake-builder';
import {
  apiSitebuilder,
  capturedLogger,
  sitebuilderEnv,
  startImageHost,
  startSitebuilderWorker,
} from '../../support/sitebuilder/setup';
import { waitFor } from '../../support/wait';

jest.setTimeout(180000);

const RATES = { rate: { overrides: { '*': { general: { minute: 10000, day: 100000 }, status: { minute: 10000 } } } } };

const POST = [
  '# Content calendars that work',
  '',
  'A **content calendar** keeps a team publishing on time. This guide shows how to plan a content calendar,',
  'fill it with ideas and keep it realistic for a small team.',
  '',
  '## Plan the month',
  '',
  '- Pick three themes',
  '- Give every post an owner',
  '',
  'Read [our template](https://example.org/template) for a start.',
].join('\n');

describe('site publishing', () => {
  let builder: FakeBuilder;
  let images: Awaited<ReturnType<typeof startImageHost>>;
  let schema: IsolatedSchema;
  let api: TestApi;
  let worker: Awaited<ReturnType<typeof startSitebuilderWorker>>;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let alice: { userId: string; key: string };
  let bob: { userId: string; key: string };
  const logs = capturedLogger();

  const publish = (key: string, json: unknown, wait = 30) =>
    call(`${api.url}/api/sitebuilder/publish?wait_seconds=${wait}`, { method: 'POST', headers: bearer(key), json });
  const task = (key: string, id: string) => call(`${api.url}/api/sitebuilder/publish/${id}`, { headers: bearer(key) });

  beforeAll(async () => {
    builder = await startFakeBuilder();
    images = await startImageHost();
    const env = sitebuilderEnv(builder);
    temporal = await testTemporal();
    schema = await isolatedSchema();
    worker = await startSitebuilderWorker(schema.db, env, logs.logger);
    api = await startTestApi({
      schema,
      projections: [taskStatusProjection, sitebuilderConnectionsProjection],
      settings: RATES,
      logger: logs.logger,
      deps: {
        workflows: { client: async () => temporal.client, taskQueue: worker.taskQueue },
        sitebuilder: apiSitebuilder(env),
      },
    });
    alice = await api.user('free');
    bob = await api.user('free');
    const u = await call(`${api.url}/api/sitebuilder/auth/url`, { headers: bearer(alice.key) });
    const granted = await builder.authorize(u.body.data.authorization_url);
    const c = await call(`${api.url}/api/sitebuilder/auth/callback`, {
      method: 'POST',
      headers: bearer(alice.key),
      json: granted,
    });
    expect(c.status).toBe(200);
  });

  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await temporal?.connection.close();
    await schema?.drop();
    await builder?.stop();
    await images?.close();
  });

  it('publishes: rich content, cover, categories, SEO data and marker at the builder; the result names the post', async () => {
    const r = await publish(alice.key, {
      title: 'Content calendars that work',
      content: POST,
      cover_image_url: `${images.url}/moved`,
      category_ids: ['cat-news', 'cat-unknown'],
      tag_ids: ['tag-seo'],
      publish: true,
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('location')).toBe(`/api/sitebuilder/publish/${r.body.data.task_id}`);
    const t = r.body.data;
    expect(t).toMatchObject({ task_id: expect.stringMatching(/^sitebuilder-publish-/), status: 'completed' });
    const result = t.result;
    expect(result).toMatchObject({
      success: true,
      status: 'published',
      post_id: expect.any(String),
      title: 'Content calendars that work',
      category_ids: ['cat-news'],
      ignored_category_ids: ['cat-unknown'],
      tag_ids: ['tag-seo'],
      ignored_tag_ids: [],
      reused_existing_draft: false,
      cover_image: { file_id: expect.any(String), url: expect.stringMatching(/^https:\/\//) },
    });
    expect(result.seo.url_slug).toBe('content-calendars-work'); // the analysis engine drops stop words
    expect(result.seo.seo_title).toMatch(/content calendar/i);
    expect(result.seo.meta_description.length).toBeGreaterThan(50);
    expect(result.seo.focus_keyword).toMatch(/content calendar/);
    expect(result.url).toBe(`https://site-owner.example/post/${result.seo.url_slug}`);
    expect(result.seo.canonical_url).toBe(result.url);
    expect(t.progress_messages.map((m: { message: string }) => m.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Converting the Markdown/),
        expect.stringMatching(/^Cover image uploaded \(\d+ bytes\)/),
        expect.stringMatching(/^Draft post .* created$/),
        `Published: ${result.url}`,
      ]),
    );

    const s = await builder.state();
    expect(s.posts.map((p) => p.id)).toEqual([result.post_id]);
    const draft = s.drafts.find((d) => d.id === result.draft_id)!;
    expect(draft.status).toBe('PUBLISHED');
    expect(draft.richContent.nodes.map((n) => (n as { type: string }).type)).toEqual([
      'HEADING',
      'PARAGRAPH',
      'HEADING',
      'BULLETED_LIST',
      'PARAGRAPH',
    ]);
    const seoTags = (draft.seoData as { tags: { type: string; children?: string; props?: Record<string, string> }[] })
      .tags;
    expect(seoTags).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'title', children: result.seo.seo_title }),
        expect.objectContaining({ type: 'meta', props: { name: 'description', content: result.seo.meta_description } }),
        expect.objectContaining({ type: 'meta', props: { name: MARKER_META, content: t.task_id } }),
      ]),
    );
    expect(draft.media).toMatchObject({ wixMedia: { image: { id: result.cover_image.file_id } } });
    expect(s.files).toHaveLength(1);
    expect(Number(s.files[0].sizeInBytes)).toBe(images.png.length);
    // The remote steps are recorded once each.
    const types = (
      await schema
        .db('es_events')
        .where({ stream_id: `sitebuilderpost-${t.task_id}` })
        .orderBy('stream_position')
    ).map((e: { type: string }) => e.type);
    expect(types).toEqual(['SitebuilderCoverUploaded', 'SitebuilderDraftCreated', 'SitebuilderPostPublished']);
  });

  it('shows progress on the status route while the task runs', async () => {
    await builder.behaviour({ holdDraftCreateMs: 2000 });
    try {
      const r = await publish(alice.key, { title: 'Progress shows', content: 'A paragraph of text.' }, 0);
      expect(r.status).toBe(202);
      expect(['started', 'in_progress']).toContain(r.body.data.status);
      const seen: string[] = [];
      let last;
      // Until a deadline, not for a number of polls: on a loaded machine the task (and each poll) takes longer.
      await waitFor(
        'the task to complete',
        async () => {
          last = await task(alice.key, r.body.data.task_id);
          expect(last.status).toBe(200);
          seen.push(last.body.data.status);
          return last.body.data.status === 'completed';
        },
        60000,
      );
      expect(seen).toContain('in_progress');
      expect(last!.body.data.status).toBe('completed');
      const running = seen.indexOf('in_progress');
      expect(running).toBeLessThan(seen.indexOf('completed'));
    } finally {
      await builder.behaviour({ holdDraftCreateMs: 0 });
    }
  });

  it('publish: false leaves a draft', async () => {
    const r = await publish(alice.key, { title: 'Only a draft', content: 'Draft text.', publish: false });
    expect(r.body.data.result).toMatchObject({
      status: 'draft',
      url: null,
      seo: { canonical_url: null },
      cover_image: null,
    });
    const d = (await builder.state()).drafts.find((x) => x.id === r.body.data.result.draft_id)!;
    expect(d.status).toBe('UNPUBLISHED');
    expect(r.body.data.result.post_id).toBe(d.id);
  });

  it("words the builder's refusals and failures in the task record", async () => {
    await builder.behaviour({
      fail: {
        method: 'POST',
        pathPrefix: '/blog/v3/draft-posts',
        status: 403,
        body: { message: 'Missing post owner information' },
      },
    });
    const refused = await publish(alice.key, { title: 'Refused', content: 'Text.' });
    expect(refused.body.data).toMatchObject({
      status: 'failed',
      error: {
        code: 'VENDOR_REQUEST_REJECTED',
        message: expect.stringContaining(
          'does not allow this connection to look up earlier drafts: Missing post owner information',
        ),
      },
    });
    const notImage = await publish(alice.key, {
      title: 'Bad cover',
      content: 'Text.',
      cover_image_url: `${images.url}/page.html`,
    });
    expect(notImage.body.data).toMatchObject({
      status: 'failed',
      error: { code: 'INVALID_REQUEST', message: 'cover_image_url is not a PNG, JPEG, GIF or WebP image' },
    });
    const missing = await publish(alice.key, {
      title: 'Missing cover',
      content: 'Text.',
      cover_image_url: `${images.url}/gone.png`,
    });
    expect(missing.body.data.error.message).toMatch(/could not be downloaded \(HTTP 404\)/);
  });

  it('refuses cover URLs that resolve to private addresses, at once', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.7/a.png',
      'http://127.0.0.2:9/a.png',
    ]) {
      const r = await publish(alice.key, { title: 'SSRF', content: 'Text.', cover_image_url: url }, 0);
      expect([url, r.status, r.body.error?.details?.parameter]).toEqual([url, 400, 'cover_image_url']);
    }
  });

  it('validates the body, needs a connection, and keeps tasks to their owner', async () => {
    const long = await publish(alice.key, { title: 'x'.repeat(101), content: 'y' }, 0);
    expect(long.status).toBe(400);
    expect(long.body.error.details.parameter).toBe('title');
    const noContent = await publish(alice.key, { title: 'No content' }, 0);
    expect(noContent.body.error.details.parameter).toBe('content');
    const badUrl = await publish(alice.key, { title: 'a', content: 'b', cover_image_url: 'ftp://x/y.png' }, 0);
    expect(badUrl.body.error.details.parameter).toBe('cover_image_url');
    const notConnected = await publish(bob.key, { title: 'a', content: 'b' }, 0);
    expect(notConnected.status).toBe(409);
    expect(notConnected.body.error).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/No site is connected/),
    });

    const mine = await publish(alice.key, { title: 'Owner check', content: 'Text.' }, 0);
    expect((await task(bob.key, mine.body.data.task_id)).status).toBe(404);
    expect((await task(alice.key, mine.body.data.task_id)).status).toBe(200);
    expect((await task(alice.key, `sitebuilder-publish-${randomUUID()}`)).status).toBe(404);
    expect((await task(alice.key, 'blog-research-whatever')).status).toBe(404);
  });

  it('answers 503 naming the variables when site publishing is not configured', async () => {
    const bare = await startTestApi({ schema, pipeline: false, settings: RATES });
    try {
      for (const [method, path, json] of [
        ['GET', '/api/sitebuilder/auth/url', undefined],
        ['POST', '/api/sitebuilder/auth/callback', { code: 'c' }],
        ['POST', '/api/sitebuilder/publish', { title: 't', content: 'c' }],
      ] as const) {
        const r = await call(`${bare.url}${path}`, {
          method,
          headers: bearer(alice.key),
          ...(json ? { json } : {}),
        });
        expect([path, r.status, r.body.error.code]).toEqual([path, 503, 'SERVICE_UNAVAILABLE']);
        expect(r.body.error.message).toMatch(/SITEBUILDER_CLIENT_ID/);
      }
    } finally {
      await bare.stop();
    }
  });
});
