/**
 * A publish retried after the worker dies between "draft created" and
 * "recorded" creates exactly one remote post. The worker is a real process
 * (workers/temporal-worker.ts, configured from its environment); the builder
 * holds its answer to the draft creation after storing the draft, and the
 * worker is killed with SIGKILL while it waits. The retried step finds the
 * draft by its idempotency marker, records it and publishes it once. The
 * worker's whole output is grepped for tokens as well.
 */
import { startTestApi, TestApi, bearer } from '../../support/api';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { startProcess, Proc } from '../../support/processes';
import { testTemporal, uniq } from '../../support/env';
import { BUNDLE_PATH } from '../../support/global-setup';
import { call } from '../../support/http';
import { taskStatusProjection } from '../../../projections/task-status';
import { sitebuilderConnectionsProjection } from '../../../projections/sitebuilder-connections';
import { FakeBuilder, startFakeBuilder } from '../../support/sitebuilder/fake-builder';
import { apiSitebuilder, capturedLogger, sitebuilderEnv } from '../../support/sitebuilder/setup';
import { waitFor } from '../../support/wait';

jest.setTimeout(300000);

describe('site publishing survives a worker crash between draft created and recorded', () => {
  let builder: FakeBuilder;
  let s: IsolatedSchema;
  let api: TestApi;
  let worker: Proc | undefined;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  const logs = capturedLogger();
  const outputs: string[] = [];

  afterAll(async () => {
    await worker?.stop('SIGTERM');
    await api?.stop();
    await temporal?.connection.close();
    await s?.drop();
    await builder?.stop();
  });

  it('SIGKILL while the draft creation is answered: one draft, one post, recorded once', async () => {
    builder = await startFakeBuilder();
    s = await isolatedSchema();
    const taskQueue = uniq('sitebuilder-crash');
    const sb = sitebuilderEnv(builder);
    const env = {
      ...sb,
      DATABASE_URL: s.url,
      KAFKA_TOPIC_PREFIX: s.topicPrefix,
      TEMPORAL_TASK_QUEUE: taskQueue,
      WORKFLOW_BUNDLE_PATH: BUNDLE_PATH,
      WORKER_HEALTH_PORT: '0',
      LOG_LEVEL: 'debug',
    };
    const start = () => startProcess('temporal-worker', env, false);
    worker = await start();
    temporal = await testTemporal();
    api = await startTestApi({
      schema: s,
      projections: [taskStatusProjection, sitebuilderConnectionsProjection],
      logger: logs.logger,
      deps: { workflows: { client: async () => temporal.client, taskQueue }, sitebuilder: apiSitebuilder(sb) },
    });
    const alice = await api.user('pro');
    const u = await call(`${api.url}/api/sitebuilder/auth/url`, { headers: bearer(alice.key) });
    const granted = await builder.authorize(u.body.data.authorization_url);
    const c = await call(`${api.url}/api/sitebuilder/auth/callback`, {
      method: 'POST',
      headers: bearer(alice.key),
      json: granted,
    });
    expect(c.status).toBe(200);

    // The builder stores the draft, then keeps the worker waiting for the answer.
    await builder.behaviour({ holdDraftCreateMs: 120000 });
    const p = await call(`${api.url}/api/sitebuilder/publish`, {
      method: 'POST',
      headers: bearer(alice.key),
      json: { title: 'Survives a crash', content: '# Heading\n\nA paragraph that is published exactly once.' },
    });
    expect(p.status).toBe(202);
    const taskId: string = p.body.data.task_id;
    await waitFor('the draft at the builder', async () => (await builder.state()).drafts.length === 1, 120000);
    // Created remotely, not recorded here.
    const recorded = () =>
      s.db('es_events').where({ stream_id: `sitebuilderpost-${taskId}`, type: 'SitebuilderDraftCreated' });
    expect(await recorded()).toHaveLength(0);

    expect(await worker.stop('SIGKILL')).toBe('SIGKILL');
    outputs.push(worker.output());
    await builder.behaviour({ holdDraftCreateMs: 0 });
    worker = await start();

    const done = await waitFor(
      'the task to finish',
      async () => {
        const t = await call(`${api.url}/api/sitebuilder/publish/${taskId}`, { headers: bearer(alice.key) });
        return ['completed', 'failed'].includes(t.body.data?.status) ? t.body.data : undefined;
      },
      120000,
      100,
    );
    outputs.push(worker.output());
    expect(done.status).toBe('completed');
    const state = await builder.state();
    expect(state.drafts).toHaveLength(1);
    expect(state.posts).toHaveLength(1);
    expect(done.result).toMatchObject({
      status: 'published',
      draft_id: state.drafts[0].id,
      post_id: state.posts[0].id,
      reused_existing_draft: true,
    });
    expect(done.progress_messages.map((m: { message: string }) => m.message)).toContain(
      `Found draft post ${state.drafts[0].id}, created by an earlier attempt of this job`,
    );
    const events = await recorded();
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ draft_id: state.drafts[0].id, found_existing: true });
    // Only one draft creation ever reached the builder; the retry looked the draft up instead.
    expect(state.requests.filter((r) => r.method === 'POST' && r.path === '/blog/v3/draft-posts')).toHaveLength(1);
    expect(state.requests.filter((r) => r.path.endsWith('/publish'))).toHaveLength(1);

    // The worker's whole output (debug level) and the API's logs hold no token.
    const text = outputs.join('\n') + logs.text();
    expect(text).toMatch(/worker running/);
    for (const t of [...state.issued.access, ...state.issued.refresh]) expect(text.includes(t)).toBe(false);
  });
});
