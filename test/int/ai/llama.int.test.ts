/**
 * The llama provider with the real default model (SmolLM2-135M-Instruct,
 * fetched by scripts/test), through the gateway: a social post within its
 * limit, a section rewrite that keeps every cited [n] (and the claim checker
 * flagging a planted sentence in it), cancellation mid-generation, two
 * generations at once, and the gate falling back on bad output. Generations
 * are kept short: the machine is shared.
 */
import { createAiGateway } from '../../../infra/ai/gateway';
import type { CompletionResponse } from '../../../infra/ai/completion';
import { recordingMeter } from '../../../infra/ai/meter';
import type { LlamaProvider } from '../../../infra/ai/llama';
import {
  citationNumbers,
  gateCopy,
  gateText,
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
import { waitFor } from '../../support/wait';

jest.setTimeout(300000);

const MODEL = 'SmolLM2-135M-Instruct.Q4_1';
const markers = (md: string) => [...md.matchAll(/\[\d+\]/g)].map((m) => m[0]).sort();

describe('llama provider (real model)', () => {
  let llama: LlamaProvider;
  beforeAll(() => {
    llama = testLlama({ contexts: 2 });
  });
  afterAll(() => llama?.runtime.close());

  const POST: ShortCopyInput = {
    form: 'social_post',
    topic: 'keeping a content calendar',
    audience: 'small marketing teams',
    keyPoints: ['plan posts weeks ahead', 'leave room for timely topics', 'review the calendar every month'],
    maxChars: 200,
  };
  const copyCall = (
    input: ShortCopyInput,
    key: string,
    modelPlan = MODEL_PLANS.copy('text', input.form, input, input.maxChars),
  ) => ({
    userId: 'u-llama',
    purpose: `copy.${input.form}`,
    messages: shortCopyPrompt(input),
    idempotencyKey: key,
    localTask: { kind: 'short_copy' as const, input },
    modelPlan,
  });
  /** What holds whoever wrote the text: who wrote it is reported, and the pieces add up. */
  const expectReport = (r: CompletionResponse) => {
    const field = r.metadata.model_writing!.fields[0];
    const rejected = Object.values(field.rejected).reduce((a, b) => a + b!, 0);
    expect(field.written + field.unchanged + rejected).toBe(field.units);
    expect(r.metadata.writer).toBe(
      field.written === 0 ? 'template' : field.written === field.units ? 'model' : 'mixed',
    );
    return field;
  };

  // The sampled tokens differ between processors (llama.cpp picks other kernels for AVX2 and AVX-512), so what the
  // model writes freely, and whether the gate takes it, is not the same on every machine: this test asserts the
  // contract either way. The gate itself is tested with fixed outputs in test/unit/ai/llama-provider.unit.test.ts.
  test('a social post within its character limit: the model’s text or the gate’s fallback, metered with its tokenizer', async () => {
    const meter = recordingMeter();
    const gw = createAiGateway({ llama, meter });
    const r = await gw.complete(copyCall(POST, 'llama-int/post'));
    const post = (JSON.parse(r.text) as { text: string }).text;
    expect([...post].length).toBeLessThanOrEqual(200);
    expect(r.metadata).toMatchObject({
      provider: 'llama',
      model: MODEL,
      model_size_bytes: 98362432,
      offline: true,
      token_source: 'model',
      generations: 1,
    });
    const field = expectReport(r);
    if (field.written === 1) expect(post).not.toBe(writeShortCopy(POST).text);
    else expect(post).toBe(writeShortCopy(POST).text);
    expect(r.tokens_in).toBeGreaterThan(100); // system line, example and brief, in the model's own tokens
    expect(r.tokens_out).toBeGreaterThan(0);
    expect(meter.calls.map((c) => c.op)).toEqual(['reserve', 'settle']);
    expect(meter.calls[1].actual).toMatchObject({ provider: 'llama', model: MODEL, cost: 0 });
  });

  // Where the model must write, a grammar decides it: every text the grammar admits passes the gate (checked below
  // for each one), so whichever tokens this processor samples, the model's post is taken.
  test('a post under a grammar is written by the model on any processor', async () => {
    const openers = [
      'Small marketing teams, keep a content calendar.',
      'A content calendar keeps small marketing teams on track.',
    ];
    const bodies = [
      'Plan posts weeks ahead, leave room for timely topics, and review the calendar every month.',
      'Review the calendar every month, plan posts weeks ahead, and leave room for timely topics.',
    ];
    const language = openers.flatMap((o) => bodies.map((b) => `${o} ${b}`));
    const quoted = (xs: string[]) => xs.map((x) => JSON.stringify(x)).join(' | ');
    const grammar = `root ::= opener " " body\nopener ::= ${quoted(openers)}\nbody ::= ${quoted(bodies)}`;
    for (const text of language) {
      expect(
        gateCopy(text, {
          form: 'social_post',
          maxChars: POST.maxChars,
          material: [POST.topic, POST.audience!, ...POST.keyPoints!, writeShortCopy(POST).text],
          subject: [POST.topic, ...POST.keyPoints!].join(' '),
        }),
      ).toEqual({ ok: true, text });
      expect(text).not.toBe(writeShortCopy(POST).text);
    }
    const plan = MODEL_PLANS.copy('text', 'social_post', POST, POST.maxChars);
    plan.fields[0].grammar = grammar;
    const meter = recordingMeter();
    const r = await createAiGateway({ llama, meter }).complete(copyCall(POST, 'llama-int/grammar', plan));
    expect(language).toContain((JSON.parse(r.text) as { text: string }).text);
    expect(r.metadata).toMatchObject({ provider: 'llama', writer: 'model', generations: 1, token_source: 'model' });
    expect(r.tokens_out).toBeGreaterThan(15); // the post's tokens, generated by the model one by one
    expect(meter.calls.map((c) => c.op)).toEqual(['reserve', 'settle']);
  });

  test('a section rewrite keeps every cited [n]; the claim checker flags a planted sentence', async () => {
    const corpus = createCorpusProvider({ dir: DEFAULT_CORPUS_DIR, publicBaseUrl: 'http://127.0.0.1:8000' });
    const sources = (await corpus.search('content calendar planning consistency', { limit: 3 })).map((s, i) => ({
      ...s,
      index: i + 1,
    }));
    const input: WriteSectionInput = {
      heading: 'Why a content calendar matters',
      // Points as sentences with sources about them: several sentences to rewrite, cited and not.
      keyPoints: ['Publishing on a steady schedule builds consistency', 'Planning ahead leaves time for research'],
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
    // Whoever wrote each sentence, every cited [n] stays, and only what the gate took differs from the template.
    expect(markers(r.text)).toEqual(markers(template));
    const field = expectReport(r);
    expect(field.units).toBeGreaterThan(1);
    expect(r.metadata.generations).toBe(field.units);
    if (field.written === 0) expect(r.text).toBe(template);
    else expect(r.text).not.toBe(template);
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
    const abortedBefore = llama.runtime.stats().aborted;
    // Aborted within one poll (25 ms, a few tokens) of the first token: a guide of 600 tokens is still being written.
    await waitFor('a generation running', () => llama.runtime.stats().generating === 1, 60000, 25);
    ac.abort(new Error('cancelled by the test'));
    await expect(call).rejects.toThrow('cancelled by the test');
    // The host itself reports the generation stopped by the cancellation (not finished), however busy the machine.
    await waitFor('no generation in the host', () => llama.runtime.stats().inHost === 0, 60000, 25);
    expect(llama.runtime.stats().aborted).toBe(abortedBefore + 1);
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

  // Which of these the gate refuses depends on the tokens sampled (fixed bad outputs are in the unit test); the
  // contract holds either way: a refused text leaves the template writer's, with the reason.
  test('the gate answers for every piece: a refused headline or chat answer leaves the template writer’s, saying why', async () => {
    const gw = createAiGateway({ llama });
    const input: ShortCopyInput = { form: 'headline', topic: 'content calendars for small teams', maxChars: 12 };
    const h = await gw.complete(copyCall(input, 'llama-int/headline'));
    const field = expectReport(h);
    const headline = (JSON.parse(h.text) as { text: string }).text;
    expect([...headline].length).toBeLessThanOrEqual(12);
    if (field.written === 0) expect(JSON.parse(h.text)).toEqual(writeShortCopy(input));

    const messages = [{ role: 'user' as const, content: '用中文回答：什么是内容日历？' }];
    const c = await gw.complete({
      userId: 'u-llama',
      provider: 'llama',
      purpose: 'chat',
      messages,
      maxTokens: 40,
      idempotencyKey: 'llama-int/language',
    });
    expect(c.metadata).toMatchObject({ provider: 'llama', generations: 1 });
    if (c.metadata.writer === 'template') {
      expect(c.metadata.fallback_reason).toBeDefined();
      expect(c.text).toBe(localChatAnswer(messages));
    } else {
      // Taken only as English prose (the prompts and the gate are English).
      expect(c.metadata.writer).toBe('model');
      expect(gateText(c.text)).toEqual({ ok: true, text: c.text });
    }
  });
});
