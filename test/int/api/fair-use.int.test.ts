/**
 * Fair use of heavy work over HTTP with a real worker (docs/api.md, "Fair use of heavy work"): a user's heavy tasks
 * beyond the plan's bound are refused with 429 and Retry-After in the route family's envelope (developer and
 * general), another user is not affected, light work is not counted, a finished task frees its place, concurrent
 * starts of one user never pass the bound, and a slot whose workflow is gone is freed after asking Temporal.
 *
 * The generations are held at their first activity (the source search) until the test lets them go, so "running"
 * is a state the test controls rather than a race with the machine's speed.
 */
import { randomUUID } from 'node:crypto';
import { createActivities } from '../../../activities';
import { createEventStore } from '../../../infra/eventstore';
import { gatewayMeter } from '../../../infra/quota/gateway-meter';
import { createAiGateway, createLocalProvider } from '../../../infra/ai';
import { createCorpusProvider, createResearchProvider, DEFAULT_CORPUS_DIR } from '../../../infra/research';
import { usageMeter } from '../../../workers/adapters';
import { taskStatusProjection } from '../../../projections/task-status';
import { RETRY_AFTER_SECONDS } from '../../../domain/fair-use';
import { VERIFY_AFTER_SECONDS } from '../../../api/kernel/fair-use';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { startTestWorker, testLogger, testTemporal } from '../../support/env';
import { call, JsonResponse } from '../../support/http';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { waitFor } from '../../support/wait';

jest.setTimeout(300000);

/** Source searches whose query names a held topic (`held-<name>`) wait until the test releases that name. */
class Holds {
  private readonly open = new Set<string>();
  private readonly waiting = new Map<string, (() => void)[]>();
  async pass(query: string): Promise<void> {
    const name = /held-[a-z0-9]+/.exec(query)?.[0];
    if (!name || this.open.has(name)) return;
    await new Promise<void>((r) => this.waiting.set(name, [...(this.waiting.get(name) ?? []), r]));
  }
  release(...names: string[]): void {
    for (const n of names) {
      this.open.add(n);
      for (const r of this.waiting.get(n) ?? []) r();
      this.waiting.delete(n);
    }
  }
  releaseAll(): void {
    this.release(...this.waiting.keys());
  }
}

describe('fair use of heavy work', () => {
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let schema: IsolatedSchema;
  let api: TestApi;
  let worker: Awaited<ReturnType<typeof startTestWorker>>;
  const holds = new Holds();

  beforeAll(async () => {
    temporal = await testTemporal();
    schema = await isolatedSchema();
    const store = createEventStore(schema.db);
    const gateway = createAiGateway({
      local: createLocalProvider(),
      meter: gatewayMeter(usageMeter(schema.db, store)),
    });
    const research = createResearchProvider({
      corpus: createCorpusProvider({ dir: DEFAULT_CORPUS_DIR, publicBaseUrl: 'http://127.0.0.1:8000' }),
    });
    const activities = createActivities({
      logger: testLogger(),
      tasks: { store },
      content: { gateway, research, store },
    }) as unknown as Record<string, (a: { query: string }) => Promise<unknown>>;
    const find = activities.findSources;
    activities.findSources = async (a) => {
      await holds.pass(a.query);
      return find(a);
    };
    worker = await startTestWorker(activities);
    api = await startTestApi({
      schema,
      projections: [taskStatusProjection],
      deps: { workflows: { client: async () => temporal.client, taskQueue: worker.taskQueue }, aiProvider: 'local' },
      settings: {
        rate: {
          overrides: { '*': { general: { minute: 10000, day: 100000 }, developer: { hour: 100000 } } },
        },
      },
    });
  });

  afterAll(async () => {
    holds.releaseAll();
    await worker?.stop();
    await api?.stop();
    await temporal?.connection.close();
    await schema?.drop();
  });

  const post = (path: string, key: string, json: unknown) =>
    call(`${api.url}${path}`, { method: 'POST', headers: { ...bearer(key), prefer: 'respond-async' }, json });
  const generate = (key: string, topic: string) =>
    post('/v1/content/generate', key, { type: 'blog_post', length: 'short', topic });

  const completed = (key: string, taskId: string) =>
    waitFor(`${taskId} completed`, async () => {
      const r = await call(`${api.url}/v1/tasks/${taskId}`, { headers: bearer(key) });
      return r.body.data?.status === 'completed';
    });
  const taskIdOf = (r: JsonResponse): string => r.body.data.task_id;

  it('beyond the bound: 429 + Retry-After in the family envelope; others unaffected; a finished task frees its place', async () => {
    const carol = await api.user('free'); // Free: 2 generations at once
    const dave = await api.user('free');
    const a = await generate(carol.key, 'Webinars held-a');
    const b = await generate(carol.key, 'Newsletters held-b');
    expect([a.status, b.status]).toEqual([202, 202]);
    // Heavy work runs on its class's task queue, light work on the platform's.
    expect((await temporal.client.workflow.getHandle(taskIdOf(a)).describe()).taskQueue).toBe(
      `${worker.taskQueue}-generation`,
    );

    const refused = await generate(carol.key, 'Podcasts held-c');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS.generation));
    expect(refused.body).toMatchObject({
      success: false,
      error: {
        code: 'RATE_LIMIT_EXCEEDED',
        message: expect.stringContaining(
          'the Free plan runs at most 2 generation tasks at a time and 2 are running; a place frees up when one of them finishes',
        ),
        details: {
          limit_type: 'concurrent_tasks',
          task_class: 'generation',
          plan: 'free',
          limit: 2,
          running: 2,
          retry_after: RETRY_AFTER_SECONDS.generation,
        },
      },
      meta: { request_id: expect.any(String) },
    });
    expect([...refused.body.error.details.running_task_ids].sort()).toEqual([taskIdOf(a), taskIdOf(b)].sort());
    // A batch is of the same class; so is the general family's blog writer, refused in the general envelope.
    const batch = await post('/v1/content/generate/batch', carol.key, { type: 'blog_post', topics: ['held-d'] });
    expect(batch.status).toBe(429);
    const writer = await post('/api/blog-writer', carol.key, { topic: 'Onboarding held-e' });
    expect(writer.status).toBe(429);
    expect(writer.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS.generation));
    expect(writer.body).toEqual({
      success: false,
      error: {
        code: 'RATE_LIMIT_EXCEEDED',
        message: refused.body.error.message,
        details: expect.objectContaining({ task_class: 'generation', limit: 2, running: 2 }),
      },
      timestamp: expect.any(String),
    });
    // Light work is not counted: research is answered (here 202, it is asked not to wait), on the platform's queue.
    const research = await post('/api/blog-writer/research', carol.key, { topic: 'Onboarding' });
    expect(research.status).toBe(202);
    expect((await temporal.client.workflow.getHandle(taskIdOf(research)).describe()).taskQueue).toBe(worker.taskQueue);
    // Another user of the same plan starts as usual.
    const other = await generate(dave.key, 'Webinars held-f');
    expect(other.status).toBe(202);

    holds.release('held-a');
    await completed(carol.key, taskIdOf(a));
    const again = await generate(carol.key, 'Podcasts held-g');
    expect(again.status).toBe(202);
    expect((await generate(carol.key, 'Podcasts held-h')).status).toBe(429);

    holds.release('held-b', 'held-f', 'held-g');
    await completed(carol.key, taskIdOf(again));
  });

  it('concurrent starts of one user never pass the bound', async () => {
    const erin = await api.user('free');
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => generate(erin.key, `Topic ${i} held-erin`)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([202, 202, 429, 429, 429, 429]);
    const slots = await schema.db('task_slots').where({ user_id: erin.userId });
    expect(slots).toHaveLength(2);
    holds.release('held-erin');
    for (const r of answers.filter((x) => x.status === 202)) await completed(erin.key, taskIdOf(r));
  });

  it('a slot whose workflow is gone is freed once Temporal is asked; a young one is not asked about', async () => {
    const frank = await api.user('free');
    const ghost = (id: string, secondsAgo: number) => ({
      task_id: id,
      user_id: frank.userId,
      task_class: 'generation',
      task_type: 'content_generation',
      taken_at: schema.db.raw(`now() - make_interval(secs => ?)`, [secondsAgo]),
    });
    const lost = `content-generate-${randomUUID()}`; // its API process died before the start, say
    const starting = `content-generate-${randomUUID()}`; // a start still in progress elsewhere
    await schema.db('task_slots').insert([ghost(lost, 3600), ghost(starting, 0)]);

    const first = await generate(frank.key, 'Webinars held-frank');
    expect(first.status).toBe(202);
    const held = (await schema.db('task_slots').where({ user_id: frank.userId }).pluck('task_id')).sort();
    expect(held).toEqual([starting, taskIdOf(first)].sort());

    // The young slot counts until it is old enough to be asked about (VERIFY_AFTER_SECONDS).
    const second = await generate(frank.key, 'Newsletters held-frank');
    expect(second.status).toBe(429);
    expect(second.body.error.details.running_task_ids).toContain(starting);
    await schema
      .db('task_slots')
      .where({ task_id: starting })
      .update({ taken_at: schema.db.raw(`now() - make_interval(secs => ?)`, [VERIFY_AFTER_SECONDS + 5]) });
    const third = await generate(frank.key, 'Newsletters held-frank');
    expect(third.status).toBe(202);
    holds.release('held-frank');
    await completed(frank.key, taskIdOf(first));
    await completed(frank.key, taskIdOf(third));
  });
});
