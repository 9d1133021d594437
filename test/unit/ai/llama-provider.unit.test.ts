/**
 * The llama provider's gate, driven with fixed model outputs: a scripted
 * runtime stands in for the model, so what each test feeds the gate is the
 * same on every processor. The real model's tests (test/int/ai/llama.int.test.ts)
 * assert the contract only, since its sampled tokens differ between
 * instruction sets; these keep the gate itself tested both ways: good text is
 * taken (writer `model`), bad text is refused with its reason and the
 * template writer's answer stays.
 */
import { createLlamaProvider, LlamaProvider } from '../../../infra/ai/llama';
import type { GenerateRequest, LlamaRuntime } from '../../../infra/ai/llama';
import type { HostGeneration } from '../../../infra/ai/llama';
import {
  localChatAnswer,
  MODEL_PLANS,
  shortCopyPrompt,
  writeSection,
  writeShortCopy,
} from '../../../domain/generation';
import type { ShortCopyInput, WriteSectionInput } from '../../../domain/generation';

/** A runtime that answers each generation with the next scripted text (or what `answer` makes of the request). */
function scriptedRuntime(answer: string[] | ((req: GenerateRequest) => string)) {
  const requests: GenerateRequest[] = [];
  let n = 0;
  const runtime: LlamaRuntime = {
    settings: { modelPath: '/models/Scripted.gguf', contexts: 1, threads: 1, contextSize: 1024 },
    info: async () => ({
      name: 'Scripted',
      file: '/models/Scripted.gguf',
      sizeBytes: 4321,
      trainContextSize: 2048,
      contextSize: 1024,
      contexts: 1,
      threads: 1,
      chatWrapper: 'ChatML',
      loadMs: 0,
    }),
    loadError: () => undefined,
    async generate(req): Promise<HostGeneration> {
      requests.push(req);
      const text = typeof answer === 'function' ? answer(req) : answer[n++ % answer.length];
      const now = Date.now();
      return {
        text,
        tokensIn: 100,
        tokensOut: text.split(/\s+/).length,
        stopReason: 'eos',
        queuedAt: now,
        startedAt: now,
        firstTokenAt: now,
        finishedAt: now,
      };
    },
    stats: () => ({ inHost: 0, generating: 0, aborted: 0, requested: requests.length }),
    countTokens: async (t) => t.split(/\s+/).length,
    close: async () => undefined,
  };
  return { runtime, requests };
}

const provider = (runtime: LlamaRuntime): LlamaProvider =>
  createLlamaProvider({
    runtime,
    model: 'Scripted',
    sampling: { temperature: 0.3, topK: 40, topP: 0.9, minP: 0.05, repeatPenalty: 1.1 },
    callBudgetMs: 60_000,
  });

const POST: ShortCopyInput = {
  form: 'social_post',
  topic: 'keeping a content calendar',
  audience: 'small marketing teams',
  keyPoints: ['plan posts weeks ahead', 'leave room for timely topics', 'review the calendar every month'],
  maxChars: 200,
};

const copyCall = (input: ShortCopyInput, key: string) => ({
  messages: shortCopyPrompt(input),
  idempotencyKey: key,
  localTask: { kind: 'short_copy' as const, input },
  modelPlan: MODEL_PLANS.copy('text', input.form, input, input.maxChars),
});

describe('llama provider with fixed model outputs', () => {
  test('a good social post is taken: writer model, counted with the model tokens', async () => {
    const good =
      'Small marketing teams: plan posts weeks ahead and leave room for timely topics. Review the calendar every month.';
    const { runtime } = scriptedRuntime([good]);
    const r = await provider(runtime).complete(copyCall(POST, 'unit/post'));
    expect(JSON.parse(r.text)).toEqual({ form: 'social_post', text: good });
    expect(r.metadata).toMatchObject({ writer: 'model', generations: 1, model_size_bytes: 4321 });
    expect(r.metadata.model_writing!.fields[0]).toMatchObject({ units: 1, written: 1, rejected: {} });
    expect(r.usage).toEqual({ prompt_tokens: 100, completion_tokens: good.split(/\s+/).length });
  });

  test.each([
    ['too long', 'A'.repeat(20) + ' ' + 'content calendars for small teams', 'too_long'],
    ['about itself', "Here's a rewritten headline: I've kept the original meaning", 'meta_talk'],
    ['an invented number', 'Content Calendars Save 73% of Your Week', 'unsupported_number'],
  ])('a headline that is %s is refused; the template writer’s stays', async (_what, bad, reason) => {
    const input: ShortCopyInput = { form: 'headline', topic: 'content calendars for small teams', maxChars: 40 };
    const { runtime } = scriptedRuntime([bad]);
    const r = await provider(runtime).complete(copyCall(input, 'unit/headline'));
    expect(JSON.parse(r.text)).toEqual(writeShortCopy(input));
    expect(r.metadata.writer).toBe('template');
    expect(r.metadata.model_writing!.fields[0].rejected).toEqual({ [reason]: 1 });
  });

  test('a social post with a name the brief never gave, or off the subject, is refused', async () => {
    for (const [bad, reason] of [
      ['Plan posts weeks ahead, as Oprah Winfrey does with her calendar.', 'unsupported_name'],
      ['Our bakery opens at dawn and the croissants sell out by noon on most days.', 'off_topic'],
    ]) {
      const { runtime } = scriptedRuntime([bad]);
      const r = await provider(runtime).complete(copyCall(POST, `unit/post-${reason}`));
      expect(JSON.parse(r.text)).toEqual(writeShortCopy(POST));
      expect(r.metadata.model_writing!.fields[0].rejected).toEqual({ [reason]: 1 });
    }
  });

  test('a chat answer in another language falls back to the extractive answer, saying why', async () => {
    const messages = [{ role: 'user' as const, content: '用中文回答：什么是内容日历？' }];
    const { runtime } = scriptedRuntime(['内容日历是一种规划内容发布时间的工具。']);
    const r = await provider(runtime).complete({ messages, idempotencyKey: 'unit/chat' });
    expect(r.metadata).toMatchObject({ writer: 'template', fallback_reason: 'off_language' });
    expect(r.text).toBe(localChatAnswer(messages));
  });

  test('a rewrite keeps faithful sentences and refuses the one that changed a number; markers stay', async () => {
    const input: WriteSectionInput = {
      heading: 'Why a content calendar matters',
      keyPoints: ['consistency'],
      keywords: ['content calendar'],
      targetWords: 60,
      sources: [
        {
          index: 1,
          title: 'Editorial calendars in practice',
          url: 'https://example.org/calendars',
          excerpt:
            'Teams that review their calendar monthly catch gaps before they become missed weeks. A calendar shared with 3 people works best.',
        },
      ],
    };
    const template = writeSection(input).markdown;
    // Each sentence comes back as given, except any with a figure, which comes back with another figure.
    const { runtime, requests } = scriptedRuntime((req) => {
      const sentence = req.turns[req.turns.length - 1].content;
      return /\d/.test(sentence) ? sentence.replace(/\d+/, '9') : sentence;
    });
    const r = await provider(runtime).complete({
      messages: [],
      idempotencyKey: 'unit/section',
      localTask: { kind: 'section', input },
      modelPlan: MODEL_PLANS.rewriteText(),
    });
    const field = r.metadata.model_writing!.fields[0];
    expect(field.units).toBe(requests.length);
    expect(field.written + field.unchanged + Object.values(field.rejected).reduce((a, b) => a + b!, 0)).toBe(
      field.units,
    );
    const withFigures = requests.filter((q) => /\d/.test(q.turns[q.turns.length - 1].content)).length;
    expect(field.rejected.unsupported_number ?? 0).toBe(withFigures);
    // Nothing changed that the gate let through, so the answer is the template's, markers included.
    expect(r.text).toBe(template);
  });

  test('a rewrite that inverts one sentence keeps that sentence and reports meaning_changed', async () => {
    const input: WriteSectionInput = {
      heading: 'Why fewer, better pieces win',
      keyPoints: ['quality over volume', 'a monthly calendar review'],
      keywords: ['content strategy'],
      targetWords: 160,
      sources: [
        {
          index: 1,
          title: 'Content strategy handbook',
          url: 'https://handbook.example.org/content-strategy',
          excerpt:
            'Publishing fewer, better-researched pieces usually beats publishing many thin ones. ' +
            'Teams that review their editorial calendar monthly catch gaps before they become missed weeks.',
        },
      ],
    };
    const template = writeSection(input).markdown;
    const inverted = 'Publishing fewer, better-researched pieces is often a recipe for disaster.';
    const faithful = 'teams reviewing their editorial calendar monthly catch gaps before they turn into missed weeks.';
    // The model turns the first sentence around, rephrases the calendar one faithfully and repeats the rest.
    const { runtime, requests } = scriptedRuntime((req) => {
      const sentence = req.turns[req.turns.length - 1].content;
      if (sentence.startsWith('Publishing fewer')) return inverted;
      return sentence.replace(/teams that review .*$/, faithful);
    });
    const r = await provider(runtime).complete({
      messages: [],
      idempotencyKey: 'unit/section-inverted',
      localTask: { kind: 'section', input },
      modelPlan: MODEL_PLANS.rewriteText(),
    });
    const field = r.metadata.model_writing!.fields[0];
    expect(field.units).toBe(requests.length);
    expect(field.rejected).toEqual({ meaning_changed: 1 });
    expect(field.written).toBe(1);
    expect(field.written + field.unchanged + 1).toBe(field.units);
    expect(r.metadata.writer).toBe('mixed');
    // the original sentence stays, with its citation; the inversion is nowhere
    expect(r.text).toContain('Publishing fewer, better-researched pieces usually beats publishing many thin ones [1].');
    expect(r.text).not.toContain('disaster');
    expect(r.text).toContain(`${faithful.replace(/\.$/, '')} [1].`);
    expect(template).not.toContain('turn into missed weeks');
  });

  test('a field with a grammar hands it to the runtime', async () => {
    const text = 'Plan your posts a few weeks ahead, and review the calendar every month.';
    const grammar = `root ::= "${text}"`;
    const { runtime, requests } = scriptedRuntime([text]);
    const plan = MODEL_PLANS.copy('text', 'social_post', POST, POST.maxChars);
    plan.fields[0].grammar = grammar;
    const r = await provider(runtime).complete({ ...copyCall(POST, 'unit/grammar'), modelPlan: plan });
    expect(requests[0].grammar).toBe(grammar);
    expect(r.metadata.writer).toBe('model');
  });
});
