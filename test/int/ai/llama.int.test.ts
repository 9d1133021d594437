/**
 * The llama provider with the real default model (SmolLM2-135M-Instruct,
 * fetched by scripts/test), through the gateway: a social post within its
 * limit, a section rewrite that keeps every cited [n] (and the claim checker
 * flagging a planted sentence in it), cancellation mid-generation, two
 * generations at once, and the gate falling back on bad output. Generations
 * are kept short: the machine is shared.
 */
import { createAiGateway } from '../../../infra/ai/gateway';
import { recordingMeter } from '../../../infra/ai/meter';
import type { LlamaProvider } from '../../../infra/ai/llama';
import {
  citationNumbers,
  localChatAnswer,
  MODEL_PLANS,
  shortCopyPrompt,
  writeSection,
  writeShortCopy,
} from '../../../domain/generation';
import type { ShortCopyInput, WriteSectionInput } from '../../../domain/generation';
import { checkClaims } from '../../../domain/analysis';
import { createCorpusProvider, DEFAULT_CORPUS_DIR } from '../../../infra/research';
import { testLlama } from '../../support/llama';

jest.setTimeout(300000);

const MODEL = 'SmolLM2-135M-Instruct.Q4_1';
const until = async (cond: () => boolean, ms = 60000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 25));
  }
};
const markers = (md: string) => [...md.matchAll(/\[\d+\]/g)].map((m) => m[0]).sort();

describe('llama provider (real model)', () => {
  let llama: LlamaProvider;
  beforeAll(() => {
    llama = testLlama({ contexts: 2 });
  });
  afterAll(() => llama?.runtime.close());

  test('a social post within its character limit, written by the model, metered with its tokenizer', async () => {
    const meter = recordingMeter();
    const gw = createAiGateway({ llama, meter });
    const input: ShortCopyInput = {
      form: 'social_post',
      topic: 'keeping a content calendar',
      audience: 'small marketing teams',
      keyPoints: ['plan posts weeks ahead', 'leave room for timely topics', 'review the calendar every month'],
      maxChars: 200,
    };
    const r = await gw.complete({
      userId: 'u-llama',
      purpose: 'copy.social_post',
      messages: shortCopyPrompt(input),
      idempotencyKey: 'llama-int/post',
      localTask: { kind: 'short_copy', input },
      modelPlan: MODEL_PLANS.copy('text', 'social_post', input, input.maxChars),
    });
    const post = (JSON.parse(r.text) as { text: string }).text;
    expect([...post].length).toBeLessThanOrEqual(200);
    expect(post).not.toBe(writeShortCopy(input).text);
    expect(r.metadata).toMatchObject({
      provider: 'llama',
      model: MODEL,
      model_size_bytes: 98362432,
      offline: true,
      token_source: 'model',
      writer: 'model',
      generations: 1,
    });
    expect(r.tokens_in).toBeGreaterThan(100); // system line, example and brief, in the model's own tokens
    expect(r.tokens_out).toBeGreaterThan(5);
    expect(meter.calls.map((c) => c.op)).toEqual(['reserve', 'settle']);
    expect(meter.calls[1].actual).toMatchObject({ provider: 'llama', model: MODEL, cost: 0 });
  });

  test('a section rewrite keeps every cited [n]; the claim checker flags a planted sentence', async () => {
    const corpus = createCorpusProvider({ dir: DEFAULT_CORPUS_DIR, publicBaseUrl: 'http://127.0.0.1:8000' });
    const sources = (await corpus.search('content calendar planning consistency', { limit: 3 })).map((s, i) => ({
      ...s,
      index: i + 1,
    }));
    const input: WriteSectionInput = {
      heading: 'Why a content calendar matters',
      keyPoints: ['consistency', 'planning ahead'],
      keywords: ['content calendar'],
      targetWords: 70,
      sources,
      tone: 'friendly',
      audience: 'small marketing teams',
    };
    const template = writeSection(input).markdown;
    const gw = createAiGateway({ llama });
    const r = await gw.complete({
      userId: 'u-llama',
      purpose: 'blog.section',
      messages: [],
      idempotencyKey: 'llama-int/section',
      localTask: { kind: 'section', input },
      modelPlan: MODEL_PLANS.rewriteText(),
    });
    expect(citationNumbers(template).length).toBeGreaterThan(0);
    expect(markers(r.text)).toEqual(markers(template));
    const field = r.metadata.model_writing!.fields[0];
    expect(field.written).toBeGreaterThan(0);
    expect(r.text).not.toBe(template);
    expect(r.metadata.writer).not.toBe('template');
    // What the gate let through makes no claim the sources contradict.
    expect(checkClaims(r.text, sources).hallucination_analysis.potential_hallucinations).toBe(0);

    const planted = `${r.text}\n\nTeams that keep a content calendar publish 73% more posts than teams without one, according to a 2019 Harvard study.`;
    const flagged = checkClaims(planted, sources).claim_analysis.find((c) => c.claim.includes('73%'));
    expect(flagged).toBeDefined();
    expect(flagged!.verification_status).not.toBe('verified');
    expect(flagged!.recommendation).toMatch(/source|citation/i);
  });

  test('cancellation mid-generation stops the model and releases the reservation', async () => {
    const meter = recordingMeter();
    const gw = createAiGateway({ llama, meter });
    const ac = new AbortController();
    const call = gw.complete({
      userId: 'u-llama',
      provider: 'llama',
      purpose: 'chat',
      messages: [{ role: 'user', content: 'Write a long, detailed guide to planning a content calendar for a year.' }],
      maxTokens: 600,
      idempotencyKey: 'llama-int/cancel',
      signal: ac.signal,
    });
    await until(() => llama.runtime.stats().generating === 1);
    const t0 = Date.now();
    ac.abort(new Error('cancelled by the test'));
    await expect(call).rejects.toThrow('cancelled by the test');
    // The host itself reports the generation stopped, long before 600 tokens.
    await until(() => llama.runtime.stats().inHost === 0, 10000);
    expect(Date.now() - t0).toBeLessThan(10000);
    expect(meter.calls.map((c) => c.op)).toEqual(['reserve', 'release']);
  });

  test('two generations run at once on two contexts', async () => {
    const turns = (topic: string) => [{ role: 'user' as const, content: `Name three benefits of ${topic}.` }];
    const sampling = { temperature: 0, topK: 40, topP: 0.9, minP: 0.05, repeatPenalty: 1.1, seed: 1 };
    const [a, b] = await Promise.all([
      llama.runtime.generate({ turns: turns('a content calendar'), maxTokens: 24, sampling }),
      llama.runtime.generate({ turns: turns('an email newsletter'), maxTokens: 24, sampling }),
    ]);
    expect(a.text.length).toBeGreaterThan(0);
    expect(b.text.length).toBeGreaterThan(0);
    // Both started before either finished: neither waited for the other's context.
    expect(a.startedAt).toBeLessThan(b.finishedAt);
    expect(b.startedAt).toBeLessThan(a.finishedAt);
  });

  test('the gate falls back to the template writer on bad output, saying why', async () => {
    const gw = createAiGateway({ llama });
    // A headline cannot fit 12 characters: refused as too long, the template's (cut to fit) stays.
    const input: ShortCopyInput = { form: 'headline', topic: 'content calendars for small teams', maxChars: 12 };
    const h = await gw.complete({
      userId: 'u-llama',
      purpose: 'copy.headline',
      messages: shortCopyPrompt(input),
      idempotencyKey: 'llama-int/headline',
      localTask: { kind: 'short_copy', input },
      modelPlan: MODEL_PLANS.copy('text', 'headline', input, input.maxChars),
    });
    expect(JSON.parse(h.text)).toEqual(writeShortCopy(input));
    expect(h.metadata.writer).toBe('template');
    expect(h.metadata.model_writing!.fields[0].rejected).toEqual({ too_long: 1 });

    // Asked in Chinese, the model answers in Chinese: refused as off-language (the prompts and gate are English),
    // and the template writer's extractive answer is returned instead.
    const messages = [{ role: 'user' as const, content: '用中文回答：什么是内容日历？' }];
    const c = await gw.complete({
      userId: 'u-llama',
      provider: 'llama',
      purpose: 'chat',
      messages,
      maxTokens: 40,
      idempotencyKey: 'llama-int/language',
    });
    expect(c.metadata).toMatchObject({ provider: 'llama', writer: 'template', fallback_reason: 'off_language' });
    expect(c.text).toBe(localChatAnswer(messages));
  });
});
