/**
 * Provider choice and the gateway's metering sequence, with in-memory
 * clients (no HTTP): explicit / auto / local, VendorNotConfiguredError,
 * reserve → settle, reserve → release, refused reservations, offline metadata.
 */
import { chooseProvider, createAiGateway } from '../../../infra/ai/gateway';
import { recordingMeter, UsageMeter } from '../../../infra/ai/meter';
import { VendorBadResponseError, VendorNotConfiguredError, VendorUnavailableError } from '../../../infra/ai/errors';
import type { ChatClient } from '../../../infra/ai/openai-compatible';
import { vendorsFromConfig } from '../../../infra/ai';
import { loadConfig } from '../../../infra/config';
import { defineAiTask } from '../../../domain/ai/task';
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
    expect((err as Error).message).toMatch(/test\.outline answer of the wrong shape/);
    expect(meter.calls.map((c) => c.op)).toEqual(['reserve', 'settle']);
  });

  test('a vendor answer with no JSON object is VENDOR_BAD_RESPONSE', async () => {
    const gw = createAiGateway({ vendors: { vendor_a: fakeClient('vendor_a', 'Sorry, I cannot help.') } });
    const err = await gw.run(OUTLINE, outlineInput, call).catch((e: unknown) => e);
    expect((err as VendorBadResponseError).code).toBe('VENDOR_BAD_RESPONSE');
    expect((err as Error).message).toMatch(/unreadable test\.outline answer/);
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
