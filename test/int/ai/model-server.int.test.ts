/**
 * The vendor path against a real OpenAI-compatible server nobody here wrote: llama-cpp-python's server serving the
 * default model (scripts/model-server; scripts/test starts it once per run and sets MODEL_SERVER_URL). What a
 * scripted server cannot show: the platform's JSON tasks answered by a real model in the structured-output mode
 * the server accepts (this server refuses `json_schema` and takes `json_object` with a schema), long answers
 * continued instead of cut, a cancel that stops the server's generation, and usage from the server's own counts.
 */
import { createOpenAiCompatibleClient } from '../../../infra/ai/openai-compatible';
import { createAiGateway } from '../../../infra/ai/gateway';
import { recordingMeter } from '../../../infra/ai/meter';
import { modelContextTokens } from '../../../infra/ai/context-size';
import { BLOG_OUTLINE, BLOG_SECTION, type SectionTaskInput } from '../../../domain/blog/tasks';
import type { AiTask } from '../../../domain/ai/task';
import { OUTREACH_EMAIL, OUTREACH_SUBJECTS } from '../../../domain/outreach/tasks';
import { startPrivateModelServer, PrivateModelServer } from '../../support/model-server';
import { waitFor } from '../../support/wait';

jest.setTimeout(240_000);

const base = process.env.MODEL_SERVER_URL ?? '';
const MODEL = 'smollm2-135m-instruct';
const sources = [
  {
    index: 1,
    title: 'Composting at home: a beginner guide',
    url: 'https://example.org/compost',
    excerpt:
      'A compost bin needs a mix of green material such as vegetable scraps and brown material such as dry leaves. Turning the pile every two weeks lets air in and speeds decomposition.',
  },
];

function setup(opts: { timeoutMs?: number; baseUrl?: string } = {}) {
  const baseUrl = opts.baseUrl ?? base;
  const client = createOpenAiCompatibleClient({
    provider: 'vendor_a',
    baseUrl,
    model: MODEL,
    timeoutMs: opts.timeoutMs ?? 120_000,
    maxRetries: 0,
  });
  const meter = recordingMeter();
  const logged: Array<Record<string, unknown>> = [];
  const gateway = createAiGateway({
    vendors: { vendor_a: client },
    meter,
    logger: { info: (o: unknown) => void logged.push(o as Record<string, unknown>) } as never,
    contextTokens: { vendor_a: modelContextTokens({ baseUrl, model: MODEL }, 2048) },
  });
  return { gateway, meter, logged };
}

const call = (key: string) => ({ userId: 'u1', idempotencyKey: key, provider: 'vendor_a' as const });

describe('the vendor path against a real model server', () => {
  let own: PrivateModelServer | undefined;
  afterAll(async () => {
    await own?.stop();
  });

  beforeAll(() => {
    if (!base) throw new Error('MODEL_SERVER_URL is not set: run the tests with scripts/test (it starts the server)');
  });

  it('answers the JSON tasks with objects of their schemas, saying which structured mode the server took', async () => {
    const { gateway, meter } = setup();
    const outline = await gateway.run(
      BLOG_OUTLINE,
      { topic: 'Composting at home', keywords: ['compost bin'], sources, wordCount: 800, audience: 'gardeners' },
      call('ms-outline'),
    );
    expect(outline.output.outline.length).toBeGreaterThan(0);
    expect(outline.output.title_options.length).toBeGreaterThan(0);
    const subjects = await gateway.run(
      OUTREACH_SUBJECTS,
      { topic: 'a guest post about composting', tone: 'professional' },
      call('ms-subjects'),
    );
    expect(subjects.output.suggestions.length).toBeGreaterThan(0);
    const email = await gateway.run(
      OUTREACH_EMAIL,
      { topic: 'a guest post about composting at home for Green Gardens', tone: 'friendly' },
      call('ms-email'),
    );
    expect(email.output.subject.length).toBeGreaterThan(0);
    expect(email.output.body.length).toBeGreaterThan(0);
    for (const r of [outline, subjects, email]) {
      // This server refuses json_schema (a validation error) and takes json_object with a schema: remembered.
      expect(r.response.metadata.structured_output).toMatchObject({ mode: 'json_object' });
      expect(r.response.provider).toBe('vendor_a');
      expect(r.response.tokens_out).toBeGreaterThan(0);
    }
    // One settled charge per call, each reservation settled or released (none left open).
    const settled = meter.calls.filter((c) => c.op === 'settle');
    expect(settled.length).toBeGreaterThanOrEqual(3);
    expect(meter.calls.filter((c) => c.op === 'reserve')).toHaveLength(
      settled.length + meter.calls.filter((c) => c.op === 'release').length,
    );
  });

  it('continues a Markdown answer cut at the output limit and never ends mid-sentence', async () => {
    const { gateway, meter } = setup();
    const task: AiTask<SectionTaskInput, string> = { ...BLOG_SECTION, maxTokens: () => 30 };
    const r = await gateway.run(
      task,
      {
        title: 'Composting at home',
        section: {
          heading: 'Getting the mix right',
          keyPoints: ['green and brown material', 'turning the pile'],
          keywords: ['compost'],
          targetWords: 200,
          sources,
          tone: 'friendly',
          audience: 'gardeners',
        },
      },
      // Greedy sampling: the same answer whatever requests the server served before (sampled answers sometimes
      // stop after a title line, which is not what this test is about).
      { ...call('ms-section'), temperature: 0 },
    );
    const text = r.output;
    expect(text.length).toBeGreaterThan(0);
    expect(text.trimEnd()).toMatch(/[.!?…)"'”’\]*]$|\n/);
    const continuations = r.response.metadata.continuations ?? 0;
    // 30 tokens cannot hold 200 words: the first answer stopped at the limit and was continued.
    expect(continuations).toBeGreaterThan(0);
    expect(meter.calls.filter((c) => c.op === 'settle')).toHaveLength(1 + continuations);
  });

  it('a cancel during a streamed generation stops the server within 2 s', async () => {
    // A server of its own, whose log is the test's alone (and whose queue holds no other file's generation).
    own = await startPrivateModelServer();
    const { gateway, meter } = setup({ baseUrl: own.url });
    const oneToken = (key: string) =>
      gateway.complete({
        userId: 'u1',
        provider: 'vendor_a',
        purpose: 'test.short',
        idempotencyKey: key,
        maxTokens: 1,
        messages: [{ role: 'user', content: 'Say yes.' }],
      });
    const controller = new AbortController();
    let tokens = 0;
    let abortedAt = 0;
    const disconnects = () => (own!.log().match(/Disconnected from client/g) ?? []).length;
    const before = disconnects();
    const long = gateway.complete({
      userId: 'u1',
      provider: 'vendor_a',
      purpose: 'test.long',
      idempotencyKey: 'ms-long',
      maxTokens: 1500,
      messages: [{ role: 'user', content: 'Write a very long, detailed guide to composting at home, in many parts.' }],
      signal: controller.signal,
      onDelta: (p) => {
        tokens = p.tokens;
        if (p.tokens === 20) {
          abortedAt = Date.now();
          controller.abort(new Error('cancelled by the test'));
        }
      },
    });
    await expect(long).rejects.toThrow('cancelled by the test');
    expect(tokens).toBeGreaterThanOrEqual(20);
    expect(tokens).toBeLessThan(200);
    // The server says when it stops a generation for a closed connection (llama-cpp-python checks after every
    // token): measured on its own log, not on the next request's latency, which the machine's load also moves.
    let stoppedAt = 0;
    await waitFor('the server to stop the generation', () => disconnects() > before, 10_000, 25).then(
      () => (stoppedAt = Date.now()),
      () => undefined,
    );
    expect(stoppedAt).toBeGreaterThan(0);
    expect(stoppedAt - abortedAt).toBeLessThan(2000);
    // ...and it is free again: a one-token request is answered (it would wait for 1,500 tokens otherwise).
    const short = await oneToken('ms-short');
    expect(short.tokens_out).toBeGreaterThanOrEqual(0);
    // The cancelled call's reservation was released, not charged.
    expect(meter.calls.filter((c) => c.key === 'ms-long').map((c) => c.op)).toEqual(['reserve', 'release']);
  });
});
