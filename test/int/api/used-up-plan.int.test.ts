/**
 * A caller whose plan limit is already used up gets 429 UsageLimitExceededException at once from every route that
 * starts AI text work — the writers (one piece and a batch), the blog's synchronous section routes, the video planner,
 * outreach email writing — and no work is started: the API's task queue here has no worker, so a route that started
 * its workflow would answer 202 (a writer, asked not to wait) or not at all (a synchronous route) instead.
 */
import pino from 'pino';
import { PLANS } from '../../../domain/plans';
import { billingPeriod } from '../../../infra/quota/meter';
import { bearer } from '../../support/api';
import { clearOfMonthEnd } from '../../support/clock';
import { testTemporal, uniq } from '../../support/env';
import { call } from '../../support/http';
import { OutreachApi, startOutreachApi } from '../outreach/helpers';

jest.setTimeout(120000);

const SECTION = { id: 'cadence', heading: 'Choosing a publishing cadence', key_points: ['Weekly posts'] };

describe('a plan limit already used up', () => {
  let api: OutreachApi;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let free: { userId: string; key: string };
  let outreach: { userId: string; token: string };

  const useUp = (userId: string, limitKey: 'tokens' | 'monthly_cost', used: number) =>
    api.schema.db('quota_usage').insert({
      user_id: userId,
      billing_period: billingPeriod(),
      limit_key: limitKey,
      used,
      reserved: 0,
    });

  beforeAll(async () => {
    temporal = await testTemporal();
    api = await startOutreachApi({
      logger: pino({ level: 'silent' }),
      // No worker polls this queue.
      temporal: { client: temporal.client, taskQueue: uniq('nobody-polls') },
      settings: { writerTaskWaitMs: 0 },
    });
    await clearOfMonthEnd(); // the used-up limit is this billing period's: the requests must not fall in the next one
    free = await api.user('free');
    await useUp(free.userId, 'tokens', PLANS.free.limits.tokens!);
    outreach = await api.session(); // a Pro user: its plan limits the monthly cost, not tokens
    await useUp(outreach.userId, 'monthly_cost', PLANS.pro.limits.monthly_cost!);
  });
  afterAll(async () => {
    await api?.stop();
    await temporal?.connection.close();
  });

  /** The answer, or a failure naming the route when none comes within 15 s (its workflow was started). */
  const answer = async (path: string, credential: string, json: unknown) => {
    let timer: NodeJS.Timeout | undefined;
    const none = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${path}: no answer within 15 s (its workflow was started)`)), 15000);
    });
    try {
      return await Promise.race([
        call(`${api.url}${path}`, { method: 'POST', headers: bearer(credential), json }),
        none,
      ]);
    } finally {
      clearTimeout(timer);
    }
  };

  it.each([
    ['/api/socialnet-writer/post/generate', { topic: 'Thursday author readings' }],
    ['/api/profnet/batch-generate', { requests: [{ type: 'post', topic: 'Thursday author readings' }] }],
    ['/api/blog/section/generate', { section: SECTION }],
    ['/api/blog/section/optimize', { section_id: 'cadence', content: 'Publish weekly. Review it every quarter.' }],
    ['/api/blog/outline/enhance-section', SECTION],
    ['/api/blog/outline/optimize', { outline: [SECTION] }],
    ['/api/videonet/plan', { topic: 'Morning routines', format: 'short', duration_seconds: 15 }],
  ])('POST %s: 429 at once, nothing started', async (path, body) => {
    const r = await answer(path, free.key, body);
    expect([r.status, r.body.error, r.body.details]).toEqual([
      429,
      'UsageLimitExceededException',
      {
        provider: 'local',
        limit_type: 'tokens',
        current_usage: PLANS.free.limits.tokens,
        limit_value: PLANS.free.limits.tokens,
      },
    ]);
  });

  it.each([
    ['/emails/generate', { topic: 'home composting' }],
    ['/emails/personalize', { base_email: 'Hello there,\n\nI write about soil.', lead_name: 'Jane Doe' }],
    ['/emails/subject-suggestions', { topic: 'home composting' }],
    ['/emails/follow-up', { original_subject: 'Composting', original_body: 'Hi Ada,\n\nA note.\n\nBest, Sam' }],
  ])('POST /api/v1/backlink-outreach%s (session): 429 at once, nothing started', async (path, body) => {
    const r = await answer(`/api/v1/backlink-outreach${path}`, outreach.token, body);
    expect([r.status, r.body.error, r.body.details?.limit_type]).toEqual([
      429,
      'UsageLimitExceededException',
      'monthly_cost',
    ]);
  });
});
