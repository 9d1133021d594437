/**
 * Where `llama` sits in the gateway, with a stand-in for the model (the real
 * model's tests are in test/int/ai/llama.int.test.ts): the selection rule,
 * metering with the model's token counts at the price-list cost, the
 * metadata it adds, and the configuration that builds it.
 */
import path from 'node:path';
import { createAiGateway } from '../../../infra/ai/gateway';
import { chooseProvider } from '../../../infra/ai/provider-choice';
import { recordingMeter } from '../../../infra/ai/meter';
import { VendorNotConfiguredError } from '../../../infra/ai/errors';
import type { LlamaProvider, LlamaRequest, LlamaResult } from '../../../infra/ai/llama';
import { hostSettings, llamaFromConfig, modelPathFromConfig } from '../../../infra/ai/llama';
import { loadConfig } from '../../../infra/config';
import { cost } from '../../../domain/pricing';
import { MODEL_PLANS } from '../../../domain/generation';

function fakeLlama(usable = true): LlamaProvider & { requests: LlamaRequest[] } {
  const requests: LlamaRequest[] = [];
  return {
    provider: 'llama',
    model: 'Tiny-Instruct.Q4',
    runtime: undefined as never,
    requests,
    usable: () => usable,
    async complete(req): Promise<LlamaResult> {
      requests.push(req);
      return {
        text: 'model text',
        finishReason: 'stop',
        model: 'Tiny-Instruct.Q4',
        attempts: 1,
        usage: { prompt_tokens: 321, completion_tokens: 45 },
        metadata: { model_size_bytes: 1234, writer: 'model', generations: 3, generation_ms: 10, queued_ms: 0 },
      };
    },
  };
}

const base = {
  userId: 'u1',
  purpose: 'test.copy',
  messages: [{ role: 'user' as const, content: 'Write a post about content calendars.' }],
  idempotencyKey: 'wf-1/1',
};
const plan = MODEL_PLANS.copy('text', 'social_post', { topic: 'content calendars' }, 200);

describe('selection with llama', () => {
  const none = { vendor_a: false, vendor_b: false };
  test.each([
    ['auto', { ...none, llama: true }, true, 'llama'],
    ['auto', { ...none, llama: true }, false, 'local'],
    ['auto', { ...none, llama: false }, true, 'local'],
    ['auto', { vendor_a: true, vendor_b: false, llama: true }, true, 'vendor_a'],
    ['auto', { vendor_a: false, vendor_b: true, llama: true }, true, 'vendor_b'],
    ['llama', { vendor_a: true, vendor_b: true, llama: true }, false, 'llama'],
    ['local', { ...none, llama: true }, true, 'local'],
  ] as const)('%s with %j (plan: %s) -> %s', (choice, configured, wantsModel, expected) => {
    expect(chooseProvider(choice, configured, wantsModel)).toBe(expected);
  });

  test('asking for llama without a model names LLAMA_MODEL_PATH', () => {
    expect(() => chooseProvider('llama', none, true)).toThrow(VendorNotConfiguredError);
    expect(() => chooseProvider('llama', none, true)).toThrow(/llama is not configured: set LLAMA_MODEL_PATH/);
  });

  test('a model that failed to load stops counting: auto falls back to local', async () => {
    const gw = createAiGateway({ llama: fakeLlama(false) });
    expect(gw.resolve('auto', true)).toBe('local');
    const out = await gw.complete({ ...base, modelPlan: plan });
    expect(out.provider).toBe('local');
  });
});

describe('gateway with llama', () => {
  test('metered with the model tokenizer counts, priced by the list (0), metadata from the model', async () => {
    const meter = recordingMeter();
    const llama = fakeLlama();
    const gw = createAiGateway({ llama, meter });
    const out = await gw.complete({
      ...base,
      modelPlan: plan,
      localTask: { kind: 'short_copy', input: { form: 'social_post', topic: 'content calendars', maxChars: 200 } },
    });
    expect(out).toMatchObject({
      provider: 'llama',
      model: 'Tiny-Instruct.Q4',
      tokens_in: 321,
      tokens_out: 45,
      cost: 0,
    });
    expect(out.metadata).toMatchObject({
      provider: 'llama',
      model: 'Tiny-Instruct.Q4',
      offline: true,
      token_source: 'model',
      model_size_bytes: 1234,
      writer: 'model',
      generations: 3,
    });
    expect(meter.calls.map((c) => [c.op, c.actual])).toEqual([
      ['reserve', undefined],
      ['settle', { provider: 'llama', model: 'Tiny-Instruct.Q4', tokens_in: 321, tokens_out: 45, cost: 0 }],
    ]);
    // The provider gets the task and the plan (it runs the template writer first, then the model).
    expect(llama.requests[0]).toMatchObject({ modelPlan: plan, localTask: { kind: 'short_copy' } });
    expect(cost('llama', 'any-model.gguf', 1e6, 1e6)).toBe(0);
  });

  test('a call without a plan does not reach llama unless asked for', async () => {
    const llama = fakeLlama();
    const gw = createAiGateway({ llama });
    expect((await gw.complete(base)).provider).toBe('local');
    expect((await gw.complete({ ...base, provider: 'llama' })).provider).toBe('llama');
    expect(llama.requests).toHaveLength(1);
  });
});

describe('configuration', () => {
  const tools = path.resolve(__dirname, '../../fixtures-none');
  test('no file, or "off": no provider', () => {
    expect(llamaFromConfig(loadConfig({}), { TOOLS_DIR: tools })).toBeUndefined();
    expect(llamaFromConfig(loadConfig({ LLAMA_MODEL_PATH: 'off' }))).toBeUndefined();
    expect(modelPathFromConfig(loadConfig({ LLAMA_MODEL_PATH: '/nonexistent/model.gguf' }))).toBeUndefined();
  });
  test('a file the user brings is used as given, named after the file', () => {
    const file = path.resolve(__dirname, '../../../package.json');
    const p = llamaFromConfig(loadConfig({ LLAMA_MODEL_PATH: file }));
    expect(p?.model).toBe('package.json');
    expect(p?.runtime.settings.modelPath).toBe(file);
  });
  test('contexts default to one per core, threads share the cores out', () => {
    expect(hostSettings(loadConfig({}), 'm.gguf', 8)).toMatchObject({ contexts: 8, threads: 1, contextSize: 2048 });
    expect(hostSettings(loadConfig({ LLAMA_CONTEXTS: '2' }), 'm.gguf', 8)).toMatchObject({ contexts: 2, threads: 4 });
    expect(hostSettings(loadConfig({ LLAMA_CONTEXTS: '3', LLAMA_THREADS: '2' }), 'm.gguf', 2)).toMatchObject({
      contexts: 3,
      threads: 2,
    });
  });
});
