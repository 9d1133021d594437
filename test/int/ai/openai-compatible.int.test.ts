/**
 * The OpenAI-compatible client and the gateway against a scripted vendor on
 * loopback: retries on 429 (Retry-After in seconds and as an HTTP date) and
 * 5xx, give-up errors, time-outs, non-retryable 4xx, and token counts from
 * reported usage versus the tokenizer. No stack needed.
 */
import { createOpenAiCompatibleClient, ClientOverrides } from '../../../infra/ai/openai-compatible';
import { createAiGateway } from '../../../infra/ai/gateway';
import { recordingMeter } from '../../../infra/ai/meter';
import { countPromptTokens, countTextTokens } from '../../../infra/ai/tokens';
import { cost } from '../../../domain/pricing';
import {
  VendorBadResponseError,
  VendorRateLimitedError,
  VendorRequestRejectedError,
  VendorTimeoutError,
  VendorUnavailableError,
} from '../../../infra/ai/errors';
import { completion, FakeVendor, startFakeVendor, Step } from '../../support/fake-vendor';

const messages = [
  { role: 'system' as const, content: 'You write marketing copy.' },
  { role: 'user' as const, content: 'Write one sentence about keyword research.' },
];
// Small backoff steps keep the suite fast; Retry-After is still honoured as given.
const fast: ClientOverrides = { backoffBaseMs: 20, backoffMaxMs: 100 };

let vendor: FakeVendor | undefined;
afterEach(async () => {
  await vendor?.close();
  vendor = undefined;
});

async function clientFor(
  script: Step[],
  opts: { maxRetries?: number; timeoutMs?: number; model?: string } = {},
  overrides: ClientOverrides = fast,
) {
  vendor = await startFakeVendor(script);
  return createOpenAiCompatibleClient(
    {
      provider: 'vendor_a',
      baseUrl: vendor.baseUrl,
      apiKey: 'sk-test',
      model: opts.model ?? 'gpt-4o-mini',
      timeoutMs: opts.timeoutMs ?? 5000,
      maxRetries: opts.maxRetries ?? 3,
    },
    overrides,
  );
}

describe('OpenAI-compatible client', () => {
  test('sends the chat-completions request and returns text, finish reason and reported usage', async () => {
    const client = await clientFor([
      {
        body: completion('Keyword research finds the words customers use.', {
          usage: { prompt_tokens: 31, completion_tokens: 9 },
          model: 'gpt-4o-mini-2024-07-18',
        }),
      },
    ]);
    const out = await client.complete({ messages, maxTokens: 64, temperature: 0.2, idempotencyKey: 'wf-1:act-1' });
    expect(out).toEqual({
      text: 'Keyword research finds the words customers use.',
      finishReason: 'stop',
      model: 'gpt-4o-mini-2024-07-18',
      usage: { prompt_tokens: 31, completion_tokens: 9 },
      attempts: 1,
    });
    const [req] = vendor!.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test');
    expect(req.headers['idempotency-key']).toBe('wf-1:act-1');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toEqual({ model: 'gpt-4o-mini', messages, max_tokens: 64, temperature: 0.2 });
  });

  test('429 with Retry-After in seconds, then success: waits at least that long and retries once', async () => {
    const client = await clientFor([
      { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'slow down' } } },
      { body: completion('ok') },
    ]);
    const out = await client.complete({ messages });
    expect(out.text).toBe('ok');
    expect(out.attempts).toBe(2);
    const [a, b] = vendor!.requests;
    expect(b.at - a.at).toBeGreaterThanOrEqual(950);
  });

  test('429 with Retry-After as an HTTP date is honoured', async () => {
    // HTTP dates have 1 s resolution: a whole second 1.5 to 2.5 s ahead, so the date is still ahead when the 429
    // arrives, however long the setup took on a loaded machine.
    const when = new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000).toUTCString();
    const client = await clientFor([{ status: 429, headers: { 'retry-after': when } }, { body: completion('ok') }]);
    const out = await client.complete({ messages });
    expect(out.attempts).toBe(2);
    // The retry did not go out before the date (a few ms of timer rounding aside); without the header it would
    // have followed the 429 after 10-20 ms of backoff.
    const [, b] = vendor!.requests;
    expect(b.at).toBeGreaterThanOrEqual(Date.parse(when) - 20);
  });

  test('a Retry-After longer than the in-process limit stops at once with VendorRateLimitedError', async () => {
    const client = await clientFor(
      [{ status: 429, headers: { 'retry-after': '3600' } }],
      {},
      { ...fast, maxRetryAfterMs: 2000 },
    );
    const err = await client.complete({ messages }).catch((e) => e);
    expect(err).toBeInstanceOf(VendorRateLimitedError);
    expect(err.retryAfterMs).toBe(3_600_000);
    expect(err.retryable).toBe(true);
    expect(vendor!.requests).toHaveLength(1);
  });

  test('429 forever: VendorRateLimitedError after maxRetries + 1 attempts', async () => {
    const client = await clientFor([{ status: 429 }], { maxRetries: 2 });
    const err = await client.complete({ messages }).catch((e) => e);
    expect(err).toBeInstanceOf(VendorRateLimitedError);
    expect(vendor!.requests).toHaveLength(3);
  });

  test('a 500 then success: retried with backoff', async () => {
    const client = await clientFor([{ status: 500, body: { error: 'boom' } }, { body: completion('recovered') }]);
    const out = await client.complete({ messages });
    expect(out.text).toBe('recovered');
    expect(out.attempts).toBe(2);
  });

  test('a 500 forever: VendorUnavailableError after the retries', async () => {
    const client = await clientFor([{ status: 503, body: { error: 'down' } }], { maxRetries: 3 });
    const err = await client.complete({ messages }).catch((e) => e);
    expect(err).toBeInstanceOf(VendorUnavailableError);
    expect(err.status).toBe(503);
    expect(err.attempts).toBe(4);
    expect(vendor!.requests).toHaveLength(4);
  });

  test('a vendor that never answers: VendorTimeoutError after each attempt times out', async () => {
    const client = await clientFor([{ hang: true }], { maxRetries: 1, timeoutMs: 300 });
    const started = Date.now();
    const err = await client.complete({ messages }).catch((e) => e);
    expect(err).toBeInstanceOf(VendorTimeoutError);
    expect(err.timeoutMs).toBe(300);
    expect(vendor!.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
  });

  test('a slow answer within the time-out succeeds', async () => {
    // Far within it, so that a loaded machine's delays do not reach it either.
    const client = await clientFor([{ delayMs: 150, body: completion('late but fine') }], { timeoutMs: 10000 });
    expect((await client.complete({ messages })).text).toBe('late but fine');
  });

  test('401 is not retried: VendorRequestRejectedError naming the key', async () => {
    const client = await clientFor([{ status: 401, body: { error: { message: 'bad key' } } }]);
    const err = await client.complete({ messages }).catch((e) => e);
    expect(err).toBeInstanceOf(VendorRequestRejectedError);
    expect(err.status).toBe(401);
    expect(err.message).toMatch(/API key/);
    expect(err.retryable).toBe(false);
    expect(vendor!.requests).toHaveLength(1);
  });

  test('a 200 that is not JSON, or has no choices: VendorBadResponseError, not retried', async () => {
    const client = await clientFor([{ raw: '<html>proxy error</html>' }]);
    await expect(client.complete({ messages })).rejects.toBeInstanceOf(VendorBadResponseError);
    expect(vendor!.requests).toHaveLength(1);
    await vendor!.close();
    const client2 = await clientFor([{ body: { choices: [] } }]);
    await expect(client2.complete({ messages })).rejects.toBeInstanceOf(VendorBadResponseError);
  });

  test('no Authorization header when the key is empty (local servers such as Ollama)', async () => {
    vendor = await startFakeVendor([{ body: completion('hi') }]);
    const client = createOpenAiCompatibleClient({
      provider: 'vendor_b',
      baseUrl: `${vendor.baseUrl}/`,
      model: 'llama3.1',
      timeoutMs: 10000,
      maxRetries: 0,
    });
    await client.complete({ messages });
    expect(vendor.requests[0].headers.authorization).toBeUndefined();
    expect(vendor.requests[0].path).toBe('/v1/chat/completions');
  });
});

describe('gateway over a real HTTP vendor', () => {
  test('reported usage is used for tokens and cost; the meter reserves then settles once', async () => {
    const client = await clientFor([
      { body: completion('A sentence.', { usage: { prompt_tokens: 1000, completion_tokens: 500 } }) },
    ]);
    const meter = recordingMeter();
    const gateway = createAiGateway({ vendors: { vendor_a: client }, meter });
    const out = await gateway.complete({
      userId: 'u1',
      purpose: 'test.usage',
      messages,
      idempotencyKey: 'wf:1',
      maxTokens: 100,
    });
    expect(out).toMatchObject({
      provider: 'vendor_a',
      tokens_in: 1000,
      tokens_out: 500,
      metadata: { provider: 'vendor_a', offline: false, token_source: 'vendor' },
    });
    expect(out.cost).toBeCloseTo(cost('vendor_a', 'gpt-4o-mini', 1000, 500), 9);
    expect(out.cost).toBeCloseTo((1000 * 0.15 + 500 * 0.6) / 1e6, 9);
    expect(meter.calls.map((c) => c.op)).toEqual(['reserve', 'settle']);
    expect(meter.calls[1].actual).toMatchObject({ provider: 'vendor_a', tokens_in: 1000, tokens_out: 500 });
  });

  test('missing usage: tokens come from the tokenizer (prompt framing + completion)', async () => {
    const text = 'Long-tail keywords convert better because they match a specific intent.';
    const client = await clientFor([{ body: completion(text, { usage: null }) }]);
    const gateway = createAiGateway({ vendors: { vendor_a: client } });
    const out = await gateway.complete({ userId: 'u1', purpose: 'test.tokenizer', messages, idempotencyKey: 'wf:2' });
    expect(out.metadata.token_source).toBe('tokenizer');
    expect(out.tokens_in).toBe(countPromptTokens(messages, 'gpt-4o-mini'));
    expect(out.tokens_out).toBe(countTextTokens(text, 'gpt-4o-mini'));
    expect(out.tokens_out).toBeGreaterThan(5);
    expect(out.tokens_out).toBeLessThan(30);
  });

  test('a failed vendor call releases the reservation and rethrows the typed error', async () => {
    const client = await clientFor([{ status: 500 }], { maxRetries: 1 });
    const meter = recordingMeter();
    const gateway = createAiGateway({ vendors: { vendor_a: client }, meter });
    await expect(
      gateway.complete({ userId: 'u1', purpose: 'test.fail', messages, idempotencyKey: 'wf:3' }),
    ).rejects.toBeInstanceOf(VendorUnavailableError);
    expect(meter.calls.map((c) => c.op)).toEqual(['reserve', 'release']);
  });
});
