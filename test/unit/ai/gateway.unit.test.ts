/**
 * Provider choice and the gateway's metering sequence, with in-memory
 * clients (no HTTP): explicit / auto / local, VendorNotConfiguredError,
 * reserve → settle, reserve → release, refused reservations, offline metadata.
 */
import { createAiGateway } from '../../../infra/ai/gateway';
import { chooseProvider } from '../../../infra/ai/provider-choice';
import { completionBudget } from '../../../infra/ai/completion-budget';
import { MAX_CONTINUATIONS } from '../../../infra/ai/markdown-answer';
import { recordingMeter, UsageMeter } from '../../../infra/ai/meter';
import { VendorBadResponseError, VendorNotConfiguredError, VendorUnavailableError } from '../../../infra/ai/errors';
import type { ChatClient } from '../../../infra/ai/openai-compatible';
import { vendorsFromConfig } from '../../../infra/ai';
import { loadConfig } from '../../../infra/config';
import { defineAiTask } from '../../../domain/ai/task';
import { BLOG_SECTION, type SectionTaskInput } from '../../../domain/blog/tasks';
import { draftOutline } from '../../../domain/generation';
import type { DraftOutline, DraftOutlineInput } from '../../../domain/generation';

const fakeClient = (provider: string, reply: string | Error = 'vendor text'): ChatClient & { calls: number } => ({
  provider,
  model: provider === 'vendor_a' ? 'gpt-4o-mini' : 'gemini-2.0-flash',
  calls: 0,
  async complete() {
    this.calls++;
    if (reply instanceof Error) throw reply;
    return {
      text: reply,
      finishReason: 'stop',
      model: this.model,
      usage: { prompt_tokens: 100, completion_tokens: 50 },
      attempts: 1,
    };
  },
});
const messages = [
  {
    role: 'user' as const,
    content:
      'Summarise: content calendars keep publishing steady. They list owners and dates. Teams review them monthly.',
  },
];
const base = { userId: 'u1', purpose: 'test', messages, idempotencyKey: 'wf-1:1' };

describe('provider choice', () => {
  const none = { vendor_a: false, vendor_b: false };
  const both = { vendor_a: true, vendor_b: true };
  test.each([
    ['auto', both, 'vendor_a'],
    ['auto', { vendor_a: false, vendor_b: true }, 'vendor_b'],
    ['auto', none, 'local'],
    [undefined, none, 'local'],
    [undefined, { vendor_a: true, vendor_b: false }, 'vendor_a'],
    ['local', both, 'local'],
    ['vendor_b', both, 'vendor_b'],
  ] as const)('%s with %j -> %s', (choice, configured, expected) => {
    expect(chooseProvider(choice, configured)).toBe(expected);
  });

  test('an explicit vendor that is not configured names the variables to set', () => {
    let err: unknown;
    try {
      chooseProvider('vendor_b', { vendor_a: true, vendor_b: false });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(VendorNotConfiguredError);
    expect((err as Error).message).toMatch(/VENDOR_B_BASE_URL/);
    expect((err as VendorNotConfiguredError).code).toBe('VENDOR_NOT_CONFIGURED');
  });

  test('configuration: an empty base URL leaves the vendor out', () => {
    expect(Object.keys(vendorsFromConfig(loadConfig({})))).toEqual([]);
    const c = loadConfig({ VENDOR_B_BASE_URL: 'http://127.0.0.1:11434/v1', VENDOR_B_MODEL: 'llama3.1' });
    const vendors = vendorsFromConfig(c);
    expect(Object.keys(vendors)).toEqual(['vendor_b']);
    expect(vendors.vendor_b!.model).toBe('llama3.1');
  });
});

describe('gateway', () => {
  test('vendor call: reserve with prompt + maxTokens estimate, settle with reported usage and cost', async () => {
    const meter = recordingMeter();
    const reserve = jest.spyOn(meter, 'reserve');
    const a = fakeClient('vendor_a');
    const gw = createAiGateway({ vendors: { vendor_a: a }, meter });
    const out = await gw.complete({ ...base, maxTokens: 200 });
    expect(out).toMatchObject({
      text: 'vendor text',
      provider: 'vendor_a',
      model: 'gpt-4o-mini',
      tokens_in: 100,
      tokens_out: 50,
      metadata: { provider: 'vendor_a', model: 'gpt-4o-mini', offline: false },
    });
    expect(out.cost).toBeCloseTo((100 * 0.15 + 50 * 0.6) / 1e6, 9);
    expect(reserve.mock.calls[0][0]).toMatchObject({ userId: 'u1', provider: 'vendor_a', idempotencyKey: 'wf-1:1' });
    expect(reserve.mock.calls[0][0].estimatedTokens).toBeGreaterThan(200);
    expect(meter.calls.map((c) => c.op)).toEqual(['reserve', 'settle']);
  });

  test('a failing vendor: release, never settle, error rethrown', async () => {
    const meter = recordingMeter();
    const gw = createAiGateway({
      vendors: { vendor_a: fakeClient('vendor_a', new VendorUnavailableError('vendor_a', 503, 'down', 4)) },
      meter,
    });
    await expect(gw.complete(base)).rejects.toBeInstanceOf(VendorUnavailableError);
    expect(meter.calls.map((c) => c.op)).toEqual(['reserve', 'release']);
  });

  test('a refused reservation stops the call before the vendor is contacted', async () => {
    const a = fakeClient('vendor_a');
    const refusing: UsageMeter = {
      reserve: async () => Promise.reject(new Error('limit')),
      settle: jest.fn(),
      release: jest.fn(),
    };
    const gw = createAiGateway({ vendors: { vendor_a: a }, meter: refusing });
    await expect(gw.complete(base)).rejects.toThrow('limit');
    expect(a.calls).toBe(0);
  });

  test('explicit unconfigured vendor throws before metering', async () => {
    const meter = recordingMeter();
    const gw = createAiGateway({ meter });
    await expect(gw.complete({ ...base, provider: 'vendor_a' })).rejects.toBeInstanceOf(VendorNotConfiguredError);
    expect(meter.calls).toEqual([]);
  });

  test('no vendor configured: local answers offline, deterministic, metered at cost 0 with tokenizer counts', async () => {
    const meter = recordingMeter();
    const gw = createAiGateway({ meter });
    const one = await gw.complete(base);
    const two = await gw.complete(base);
    expect(one).toEqual(two);
    expect(one).toMatchObject({
      provider: 'local',
      model: 'local-extractive-v1',
      cost: 0,
      metadata: { provider: 'local', offline: true, token_source: 'tokenizer' },
    });
    expect(one.text).toMatch(/content calendars/i);
    expect(one.tokens_in).toBeGreaterThan(10);
    expect(one.tokens_out).toBeGreaterThan(3);
    expect(meter.calls.map((c) => c.op)).toEqual(['reserve', 'settle', 'reserve', 'settle']);
    expect(meter.calls[1].actual).toMatchObject({ provider: 'local', cost: 0 });
  });

  test('local tasks: section Markdown, outline JSON', async () => {
    const gw = createAiGateway();
    const sources = [
      {
        title: 'Guide',
        url: 'http://s/1',
        excerpt:
          'A content calendar keeps publishing steady across the year. The calendar lists owners, channels and dates for every piece.',
      },
    ];
    const section = await gw.complete({
      ...base,
      messages: [],
      localTask: {
        kind: 'section',
        input: { heading: 'Planning', keyPoints: ['Use a content calendar'], targetWords: 120, sources },
      },
    });
    expect(section.text).toMatch(/\[1\]/);
    expect(section.tokens_in).toBeGreaterThan(10);
    const outline = await gw.complete({
      ...base,
      messages: [],
      localTask: { kind: 'outline', input: { topic: 'content calendars', sources, wordCount: 900 } },
    });
    // One short source gives no phrase of its own: the opening section on the topic, no invented body sections.
    const sections = JSON.parse(outline.text).outline as Array<{ target_words: number }>;
    expect(sections.length).toBeGreaterThanOrEqual(1);
    expect(sections.reduce((n, s) => n + s.target_words, 0)).toBe(900);
  });
});

describe('vendor text before it is stored', () => {
  it('removes NUL characters and unpaired surrogates a vendor sends, keeping real emoji', async () => {
    const gateway = createAiGateway({
      vendors: { vendor_a: fakeClient('vendor_a', 'Hello\u0000 world \ud800and 🚀') },
    });
    const r = await gateway.complete({ ...base, provider: 'vendor_a' });
    expect(r.text).toBe('Hello world and 🚀');
  });
});

describe('typed tasks (run)', () => {
  const sources = [
    {
      title: 'Guide',
      url: 'http://s/1',
      excerpt:
        'A content calendar keeps publishing steady across the year. The calendar lists owners, channels and dates for every piece.',
    },
  ];
  const outlineInput: DraftOutlineInput = { topic: 'content calendars', sources, wordCount: 900 };
  const OUTLINE = defineAiTask<DraftOutlineInput, DraftOutline>({
    purpose: 'test.outline',
    answer: 'json',
    prompt: (i) => [{ role: 'user', content: `Outline ${i.topic} as JSON {title_options, outline}.` }],
    local: (input) => ({ kind: 'outline', input }),
    output: {
      type: 'object',
      required: ['title_options', 'outline'],
      properties: { title_options: { type: 'array', items: { type: 'string' } }, outline: { type: 'array' } },
    },
    maxTokens: () => 300,
  });
  const call = { userId: 'u1', idempotencyKey: 'wf-1:run' };
  const vendorAnswer = { title_options: ['Calendars that hold'], outline: [{ heading: 'Why plan' }] };

  test('local answers the offline writer’s object itself, not its text parsed again', async () => {
    const gw = createAiGateway();
    const { output, response } = await gw.run(OUTLINE, outlineInput, call);
    expect(response.provider).toBe('local');
    expect(output).toEqual(draftOutline(outlineInput));
    // The very value the local provider returned: no JSON text was read back into a new object.
    expect(output).toBe(response.value);
    expect(response.metadata.purpose).toBe('test.outline');
  });

  test('a vendor’s JSON answer is parsed and checked; the local writer is not involved', async () => {
    const vendor = fakeClient('vendor_a', JSON.stringify(vendorAnswer));
    const gw = createAiGateway({ vendors: { vendor_a: vendor } });
    const { output, response } = await gw.run(OUTLINE, outlineInput, call);
    expect(vendor.calls).toBe(1);
    expect(response.provider).toBe('vendor_a');
    expect(response.value).toBeUndefined();
    expect(output).toEqual(vendorAnswer);
  });

  test('a fenced JSON vendor answer is parsed', async () => {
    const fenced = `Here it is:\n\`\`\`json\n${JSON.stringify(vendorAnswer, null, 2)}\n\`\`\`\nHope it helps.`;
    const gw = createAiGateway({ vendors: { vendor_a: fakeClient('vendor_a', fenced) } });
    const { output } = await gw.run(OUTLINE, outlineInput, call);
    expect(output).toEqual(vendorAnswer);
  });

  test('a vendor JSON answer of the wrong shape is VENDOR_BAD_RESPONSE (and the call is still metered)', async () => {
    const meter = recordingMeter();
    const gw = createAiGateway({
      vendors: { vendor_a: fakeClient('vendor_a', JSON.stringify({ title_options: 'one', outline: [] })) },
      meter,
    });
    const err = await gw.run(OUTLINE, outlineInput, call).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VendorBadResponseError);
    expect((err as VendorBadResponseError).code).toBe('VENDOR_BAD_RESPONSE');
    expect((err as Error).message).toMatch(/test\.outline answer unusable: the JSON does not match the schema/);
    // Asked once more with what was wrong (its own key), then once afresh (a new sample) with its own re-ask:
    // every call is metered under its own key.
    expect(meter.calls.map((c) => [c.op, c.key])).toEqual([
      ['reserve', 'wf-1:run'],
      ['settle', 'wf-1:run'],
      ['reserve', 'wf-1:run:repair'],
      ['settle', 'wf-1:run:repair'],
      ['reserve', 'wf-1:run:fresh'],
      ['settle', 'wf-1:run:fresh'],
      ['reserve', 'wf-1:run:fresh:repair'],
      ['settle', 'wf-1:run:fresh:repair'],
    ]);
  });

  /** A vendor that answers `replies` in turn (the last one repeats) and records what it was sent. */
  const scripted = (replies: Array<{ text: string; finishReason?: string; structuredMode?: 'json_object' }>) => {
    const sent: Array<{ messages: Array<{ role: string; content: string }>; maxTokens?: number }> = [];
    const client: ChatClient = {
      provider: 'vendor_a',
      model: 'gpt-4o-mini',
      async complete(req) {
        sent.push({ messages: req.messages, maxTokens: req.maxTokens });
        const r = replies[Math.min(sent.length - 1, replies.length - 1)];
        return {
          text: r.text,
          finishReason: r.finishReason ?? 'stop',
          model: 'gpt-4o-mini',
          usage: { prompt_tokens: 10, completion_tokens: 5 },
          attempts: 1,
          ...(req.responseFormat ? { structuredMode: r.structuredMode ?? 'json_schema' } : {}),
        };
      },
    };
    return { client, sent };
  };

  test('a vendor is asked for the task’s schema; a valid first answer is recorded as such', async () => {
    const { client } = scripted([{ text: JSON.stringify(vendorAnswer) }]);
    let asked: unknown;
    const spy: ChatClient = { ...client, complete: (r) => ((asked = r.responseFormat), client.complete(r)) };
    const { response } = await createAiGateway({ vendors: { vendor_a: spy } }).run(OUTLINE, outlineInput, call);
    expect(asked).toEqual({ name: 'test.outline', schema: OUTLINE.output });
    expect(response.metadata.structured_output).toEqual({ mode: 'json_schema', first_valid: true, repair: 'none' });
  });

  test('an answer cut short mid-structure is read back to its last complete member (no second call)', async () => {
    const cut =
      '{"title_options": ["Calendars that hold", "Plan a month"], "outline": [{"heading": "Why plan"}, {"heading": "Who ow';
    const { client, sent } = scripted([{ text: cut, finishReason: 'length', structuredMode: 'json_object' }]);
    const { output, response } = await createAiGateway({ vendors: { vendor_a: client } }).run(
      OUTLINE,
      outlineInput,
      call,
    );
    expect(sent).toHaveLength(1);
    expect(output).toEqual({
      title_options: ['Calendars that hold', 'Plan a month'],
      outline: [{ heading: 'Why plan' }],
    });
    expect(response.metadata.structured_output).toEqual({ mode: 'json_object', first_valid: false, repair: 'syntax' });
  });

  test('an answer of the wrong shape is asked again once, with the validation error; tokens of both add up', async () => {
    const { client, sent } = scripted([
      { text: JSON.stringify({ title_options: 'one', outline: [] }) },
      { text: JSON.stringify(vendorAnswer) },
    ]);
    const meter = recordingMeter();
    const { output, response } = await createAiGateway({ vendors: { vendor_a: client }, meter }).run(
      OUTLINE,
      outlineInput,
      call,
    );
    expect(output).toEqual(vendorAnswer);
    expect(sent).toHaveLength(2);
    const reask = sent[1].messages;
    expect(reask[reask.length - 2]).toEqual({
      role: 'assistant',
      content: JSON.stringify({ title_options: 'one', outline: [] }),
    });
    expect(reask[reask.length - 1].content).toMatch(/title_options must be array/);
    expect(response.metadata.structured_output).toMatchObject({ first_valid: false, repair: 'reask' });
    expect([response.tokens_in, response.tokens_out]).toEqual([20, 10]);
    expect(meter.calls.filter((c) => c.op === 'settle')).toHaveLength(2);
  });

  test('an answer of the schema that the task finds unusable is asked again with why, then refused', async () => {
    const usable = (o: { title_options: string[] }) =>
      o.title_options.some((t) => t.trim()) ? undefined : 'every title option is empty';
    const PICKY = defineAiTask<typeof outlineInput, { title_options: string[] }>({ ...OUTLINE, usable });
    const blank = JSON.stringify({ title_options: [' '], outline: [] });
    const fixed = scripted([{ text: blank }, { text: JSON.stringify(vendorAnswer) }]);
    const { output } = await createAiGateway({ vendors: { vendor_a: fixed.client } }).run(PICKY, outlineInput, call);
    expect(output).toEqual(vendorAnswer);
    const reask = fixed.sent[1].messages;
    expect(reask[reask.length - 1].content).toMatch(/^That answer cannot be used: every title option is empty\./);

    const stuck = scripted([{ text: blank }]);
    await expect(
      createAiGateway({ vendors: { vendor_a: stuck.client } }).run(PICKY, outlineInput, call),
    ).rejects.toThrow(/test\.outline answer unusable: every title option is empty/);
    expect(stuck.sent).toHaveLength(4);
  });

  /** A Markdown task with a small budget: the continuation tests' section. */
  const MD_SECTION = defineAiTask<{ heading: string }, string>({
    purpose: 'test.section',
    answer: 'markdown',
    prompt: (i) => [{ role: 'user', content: `Write about ${i.heading}.` }],
    maxTokens: () => 50,
  });

  test('a Markdown answer cut at the output limit is continued, joined without repeats, and ends a sentence', async () => {
    const { client, sent } = scripted([
      { text: 'Calendars keep a team publishing. Each post has an owner and', finishReason: 'length' },
      { text: 'an owner and a date. Review the plan every month. Then', finishReason: 'length' },
      { text: ' the team adjusts what it', finishReason: 'length' },
    ]);
    const { output, response } = await createAiGateway({ vendors: { vendor_a: client } }).run(
      MD_SECTION,
      { heading: 'Planning' },
      call,
    );
    expect(sent).toHaveLength(1 + MAX_CONTINUATIONS);
    expect(sent[1].messages.slice(-2)[0]).toEqual({
      role: 'assistant',
      content: 'Calendars keep a team publishing. Each post has an owner and',
    });
    // Still cut after the continuations: it ends at the last complete sentence.
    expect(output).toBe(
      'Calendars keep a team publishing. Each post has an owner and a date. Review the plan every month.',
    );
    expect(response.metadata.continuations).toBe(MAX_CONTINUATIONS);
  });

  test('an answer that ends without a finish reason (an interrupted stream) is continued like a cut one', async () => {
    // llama-cpp-python ends a stream with [DONE] and no finish_reason when another request interrupts it; the
    // continuation below restarts with the two words it was cut after and then stops mid-sentence.
    const { client, sent } = scripted([
      { text: 'A compost bin needs green and brown material. [2] What', finishReason: 'unknown' },
      { text: '[2] What goes in first is a layer of twigs. Then the', finishReason: 'stop' },
    ]);
    const { output, response } = await createAiGateway({ vendors: { vendor_a: client } }).run(
      MD_SECTION,
      { heading: 'Compost' },
      call,
    );
    expect(sent).toHaveLength(2);
    expect(output).toBe('A compost bin needs green and brown material. [2] What goes in first is a layer of twigs.');
    expect(response.metadata.continuations).toBe(1);
  });

  test('a finished answer is neither continued nor shortened', async () => {
    const { client, sent } = scripted([
      { text: '## Steps\n\n- green material\n- brown material', finishReason: 'stop' },
    ]);
    const { output, response } = await createAiGateway({ vendors: { vendor_a: client } }).run(
      MD_SECTION,
      { heading: 'Compost' },
      call,
    );
    expect(sent).toHaveLength(1);
    expect(output).toBe('## Steps\n\n- green material\n- brown material');
    expect(response.metadata.continuations).toBe(0);
  });

  test('a Markdown answer that writes its instructions back is asked again once, then refused', async () => {
    const SECTION = defineAiTask<{ heading: string }, string>({
      purpose: 'test.section',
      answer: 'markdown',
      prompt: () => [
        {
          role: 'system',
          content: 'You are a professional blog writer. Use only facts stated in the numbered sources.',
        },
        { role: 'user', content: 'Write about planning.' },
      ],
      maxTokens: () => 200,
    });
    const echo = 'You are a professional blog writer. Use only facts stated in the numbered sources.';
    const fixed = scripted([{ text: echo }, { text: 'A calendar gives every post an owner and a date.' }]);
    const { output, response } = await createAiGateway({ vendors: { vendor_a: fixed.client } }).run(
      SECTION,
      { heading: 'Planning' },
      call,
    );
    expect(output).toBe('A calendar gives every post an owner and a date.');
    expect(fixed.sent[1].messages.slice(-1)[0].content).toMatch(/repeats your instructions/);
    expect(response.tokens_out).toBe(10);
    const stuck = scripted([{ text: echo }]);
    await expect(
      createAiGateway({ vendors: { vendor_a: stuck.client } }).run(SECTION, { heading: 'Planning' }, call),
    ).rejects.toThrow(/test\.section answer repeats its instructions \(".*"\) instead of following them/);
    // The call and its re-ask, then a fresh call and its re-ask.
    expect(stuck.sent).toHaveLength(4);
  });

  test('a blog section is briefed as the writer’s own role, in sentences; one written back is asked again', async () => {
    const input: SectionTaskInput = {
      title: 'Grooming your dog at home',
      section: {
        heading: 'Trim the hair between paw pads',
        keyPoints: ['long hair between the pads collects ice and mud'],
        keywords: ['paw pads'],
        targetWords: 120,
        sources: [],
      } as unknown as SectionTaskInput['section'],
    };
    const [system, user] = BLOG_SECTION.prompt(input);
    // No labelled fields ("Section: …", "Key points: …"): the default model wrote those back as its answer.
    for (const m of [system, user]) expect(m.content).not.toMatch(/^(Article|Section|Key points|Keywords|Tone):/m);
    expect(system.content).toContain('You are a blogger writing one section of your blog post "Grooming your dog');
    expect(system.content).toContain(
      'In about 120 words, make this point in your own words: long hair between the pads collects ice and mud.',
    );
    expect(user.content).toMatch(/Write the section now\.$/);
    const echo =
      'In about 120 words, make this point in your own words: long hair between the pads collects ice and mud.\n\nTrim it.';
    const text = 'Long hair between the pads collects ice and mud, so trim it level with the pads every month.';
    const { client, sent } = scripted([{ text: echo }, { text }]);
    const { output } = await createAiGateway({ vendors: { vendor_a: client } }).run(BLOG_SECTION, input, call);
    expect(output).toBe(text);
    expect(sent[1].messages.slice(-1)[0].content).toMatch(/repeats your instructions \("In about 120 words/);
    // The key point stated in the text is what the brief asks for: no re-ask.
    const fine = scripted([{ text }]);
    await createAiGateway({ vendors: { vendor_a: fine.client } }).run(BLOG_SECTION, input, call);
    expect(fine.sent).toHaveLength(1);
  });

  test('an answer still unusable after its re-ask gets one fresh call, which can succeed', async () => {
    const bad = JSON.stringify({ title_options: 'one', outline: [] });
    const { client, sent } = scripted([{ text: bad }, { text: bad }, { text: JSON.stringify(vendorAnswer) }]);
    const logged: Array<Record<string, unknown>> = [];
    const logger = { info: (o: Record<string, unknown>, msg: string) => void logged.push({ ...o, msg }) };
    const { output, response } = await createAiGateway({ vendors: { vendor_a: client }, logger: logger as never }).run(
      OUTLINE,
      outlineInput,
      call,
    );
    // Each answer is logged with the attempt it belongs to (what the evaluation counts calls by).
    expect(logged.filter((l) => l.msg === 'ai structured answer').map((l) => [l.attempt, l.valid])).toEqual([
      ['first', false],
      ['fresh', true],
    ]);
    expect(output).toEqual(vendorAnswer);
    expect(sent).toHaveLength(3);
    // The fresh call starts over: the prompt alone, not the refused answers.
    expect(sent[2].messages).toEqual(sent[0].messages);
    expect(response.metadata.structured_output).toEqual({ mode: 'json_schema', first_valid: true, repair: 'none' });
    // The answer reports all three calls (each metered), not only the fresh one: 10 in and 5 out each.
    expect([response.tokens_in, response.tokens_out]).toEqual([30, 15]);
    // Refused after the fresh call too: the error carries all four calls.
    const stuck = scripted([{ text: bad }]);
    const refused = await createAiGateway({ vendors: { vendor_a: stuck.client } })
      .run(OUTLINE, outlineInput, call)
      .catch((e: VendorBadResponseError) => e);
    expect(refused).toBeInstanceOf(VendorBadResponseError);
    expect([stuck.sent.length, (refused as VendorBadResponseError).spent?.tokens_out]).toEqual([4, 20]);
  });

  test('chat around a Markdown answer is removed; an answer about editing a draft is asked again once', async () => {
    // The default model's answer to a listicle brief in the vendor evaluation (2026-11-27), shortened.
    const review =
      "Here's a rewritten version of your introduction with some minor edits:\n\nYou've crafted a compelling listicle.\n\nI made some minor adjustments to enhance the narrative clarity.\n\nI hope these edits help you refine your blog content further!";
    const { client, sent } = scripted([
      { text: review },
      {
        text: 'Sure! Here is the post:\n\nAuthor events bring readers in. Book them a month ahead.\n\nI hope this helps!',
      },
    ]);
    const { output } = await createAiGateway({ vendors: { vendor_a: client } }).run(
      MD_SECTION,
      { heading: 'Author events' },
      call,
    );
    expect(sent).toHaveLength(2);
    expect(sent[1].messages.slice(-1)[0].content).toMatch(
      /talks about editing a text \("Here's a rewritten version of your introduction/,
    );
    expect(output).toBe('Author events bring readers in. Book them a month ahead.');
    const stuck = scripted([{ text: review }]);
    await expect(
      createAiGateway({ vendors: { vendor_a: stuck.client } }).run(MD_SECTION, { heading: 'Author events' }, call),
    ).rejects.toThrow(/test\.section answer talks about editing a text/);
  });

  test('completion budgets fit the model’s context; a prompt that leaves no room is refused before the call', async () => {
    expect(completionBudget(2000, 1000, undefined, { provider: 'vendor_a', purpose: 'p' })).toBe(2000);
    expect(completionBudget(2000, 1000, 2048, { provider: 'vendor_a', purpose: 'p' })).toBe(2048 - 1150 - 16);
    expect(completionBudget(300, 100, 8192, { provider: 'vendor_a', purpose: 'p' })).toBe(300);
    expect(() => completionBudget(2000, 1900, 2048, { provider: 'vendor_a', purpose: 'blog.outline' })).toThrow(
      /blog\.outline: the prompt \(about 1900 tokens\) leaves no room for an answer in the model's context of 2048 tokens/,
    );
    const { client, sent } = scripted([{ text: 'Short.' }]);
    const gw = createAiGateway({ vendors: { vendor_a: client }, contextTokens: { vendor_a: async () => 512 } });
    await gw.complete({ ...base, provider: 'vendor_a', maxTokens: 2000 });
    expect(sent[0].maxTokens).toBeLessThan(512);
  });

  test('a vendor answer with no JSON object is VENDOR_BAD_RESPONSE', async () => {
    const gw = createAiGateway({ vendors: { vendor_a: fakeClient('vendor_a', 'Sorry, I cannot help.') } });
    const err = await gw.run(OUTLINE, outlineInput, call).catch((e: unknown) => e);
    expect((err as VendorBadResponseError).code).toBe('VENDOR_BAD_RESPONSE');
    expect((err as Error).message).toMatch(/test\.outline answer unusable: it is not one complete JSON object/);
  });

  test('an answer that parses only once read back, and then misses the schema, says both', async () => {
    // A raw line break in a string (read back by escaping it) and a wrong-typed field: the model is told both.
    const bad = '{"title_options": "one\ntwo", "outline": []}';
    const gw = createAiGateway({ vendors: { vendor_a: fakeClient('vendor_a', bad) } });
    const err = await gw.run(OUTLINE, outlineInput, call).catch((e: unknown) => e);
    // V8's own words differ by Node.js release (24 adds "(line 1 column 23)" inside the parenthesis).
    expect((err as Error).message).toMatch(
      /it is not one complete JSON object \(Bad control character.*\); read back, the JSON does not match the schema \(data\/title_options must be array/,
    );
  });

  test('a Markdown task returns the trimmed text, from a vendor and from local', async () => {
    const SECTION = defineAiTask<{ heading: string }, string>({
      purpose: (i) => `test.section.${i.heading.toLowerCase()}`,
      answer: 'markdown',
      prompt: (i) => [{ role: 'user', content: `Write a section on ${i.heading}.` }],
      local: (i) => ({
        kind: 'section',
        input: { heading: i.heading, keyPoints: ['Use a content calendar'], targetWords: 120, sources },
      }),
      maxTokens: () => 400,
    });
    const vendor = createAiGateway({
      vendors: { vendor_a: fakeClient('vendor_a', '\n  Plans keep teams steady [1].\n') },
    });
    const fromVendor = await vendor.run(SECTION, { heading: 'Planning' }, call);
    expect(fromVendor.output).toBe('Plans keep teams steady [1].');
    // A purpose of the input: resolved per call.
    expect(fromVendor.response.metadata.purpose).toBe('test.section.planning');
    const fromLocal = await createAiGateway().run(SECTION, { heading: 'Planning' }, call);
    expect(fromLocal.response.provider).toBe('local');
    expect(fromLocal.output).toBe(fromLocal.response.text.trim());
    expect(fromLocal.output).toMatch(/\[1\]/);
  });

  test('a vendor-only task (no offline writer) is refused on local before anything is metered', async () => {
    const meter = recordingMeter();
    const TRANSLATE = defineAiTask<{ text: string }, { translations: string[] }>({
      purpose: 'test.translate',
      answer: 'json',
      prompt: (i) => [{ role: 'user', content: `Translate ${i.text}` }],
      maxTokens: () => 100,
    });
    await expect(createAiGateway({ meter }).run(TRANSLATE, { text: 'hello' }, call)).rejects.toThrow(
      /vendor-only task/,
    );
    expect(meter.calls).toEqual([]);
    const gw = createAiGateway({ vendors: { vendor_a: fakeClient('vendor_a', '{"translations": ["hallo"]}') } });
    expect((await gw.run(TRANSLATE, { text: 'hello' }, call)).output).toEqual({ translations: ['hallo'] });
  });
});
