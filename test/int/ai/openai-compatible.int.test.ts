/**
 * The OpenAI-compatible client and the gateway against a scripted vendor on
 * loopback: retries on 429 (Retry-After in seconds and as an HTTP date) and
 * 5xx, give-up errors, time-outs, non-retryable 4xx, and token counts from
 * reported usage versus the tokenizer; structured outputs and their
 * step-down on servers that refuse them; streaming with progress, idle
 * time-outs, cancellation and the fall-back to a plain completion. No stack
 * needed.
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
import { completion, FakeVendor, startFakeVendor, Step, streamChunks } from '../../support/fake-vendor';
import { waitFor } from '../../support/wait';

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

const outline = {
  name: 'blog outline/v1!',
  schema: {
    type: 'object',
    properties: { title: { type: 'string' } },
    required: ['title'],
    additionalProperties: false,
  },
};
const answer = JSON.stringify({ title: 'Keyword research' });
const refusal = (status: number, message: string): Step => ({ status, body: { error: { message } } });
const bodyOf = (i: number) => vendor!.requests[i].body as Record<string, unknown>;
const systemOf = (i: number) => (bodyOf(i).messages as Array<{ role: string; content: string }>)[0];

describe('structured outputs', () => {
  test('json_schema is sent strict, with the name sanitised, and the messages untouched', async () => {
    const client = await clientFor([{ body: completion(answer) }]);
    const out = await client.complete({ messages, responseFormat: outline });
    expect(out).toMatchObject({ text: answer, structuredMode: 'json_schema', attempts: 1 });
    expect(bodyOf(0)).toEqual({
      model: 'gpt-4o-mini',
      messages,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'blog_outline_v1_', schema: outline.schema, strict: true },
      },
    });
  });

  test('refused json_schema, then refused json_object (with and without a schema): plain prompting, remembered', async () => {
    const client = await clientFor([
      refusal(400, "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model."),
      refusal(400, "Unknown parameter: 'response_format.schema'."),
      refusal(422, 'grammar-constrained decoding is not available'),
      { body: completion(answer) },
    ]);
    const out = await client.complete({ messages, responseFormat: outline });
    expect(out).toMatchObject({ text: answer, structuredMode: 'prompt' });
    expect(vendor!.requests).toHaveLength(4);
    expect((bodyOf(0).response_format as { type: string }).type).toBe('json_schema');
    // JSON mode with the schema beside it (llama-cpp-python's grammar), then plain JSON mode.
    expect(bodyOf(1).response_format).toEqual({ type: 'json_object', schema: outline.schema });
    expect(bodyOf(2).response_format).toEqual({ type: 'json_object' });
    expect(bodyOf(3)).not.toHaveProperty('response_format');
    // Without json_schema the schema travels in the (one, leading) system message.
    for (const i of [1, 2, 3]) {
      expect(systemOf(i).content).toMatch(/^You write marketing copy\.\n\nAnswer with one JSON object/);
      expect(systemOf(i).content).toContain(JSON.stringify(outline.schema));
      expect((bodyOf(i).messages as unknown[]).length).toBe(messages.length);
    }

    const again = await client.complete({ messages, responseFormat: outline });
    expect(again.structuredMode).toBe('prompt');
    expect(vendor!.requests).toHaveLength(5);
    expect(bodyOf(4)).not.toHaveProperty('response_format');
  });

  test('a 500 that is a parameter validation report (llama-cpp-python) steps down at once, without retries', async () => {
    const report =
      "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\"}";
    const client = await clientFor([
      { status: 500, body: { error: { message: report, type: 'internal_server_error' } } },
      { body: completion(answer) },
    ]);
    const out = await client.complete({ messages, responseFormat: outline });
    expect(out.structuredMode).toBe('json_object');
    expect(vendor!.requests).toHaveLength(2);
    expect(bodyOf(1).response_format).toEqual({ type: 'json_object', schema: outline.schema });
  });

  test('json_object accepted after json_schema was refused: the next call starts at json_object', async () => {
    const client = await clientFor([
      refusal(400, 'response_format json_schema is not supported'),
      { body: completion(answer) },
    ]);
    expect((await client.complete({ messages: messages.slice(1), responseFormat: outline })).structuredMode).toBe(
      'json_object',
    );
    // No system message to merge into: one is put first.
    expect(systemOf(1).role).toBe('system');
    expect(systemOf(1).content).toMatch(/JSON Schema/);
    expect((await client.complete({ messages, responseFormat: outline })).structuredMode).toBe('json_object');
    expect(vendor!.requests).toHaveLength(3);
    expect(bodyOf(2).response_format).toEqual({ type: 'json_object', schema: outline.schema });
    // A call without responseFormat is not affected.
    await client.complete({ messages });
    expect(bodyOf(3)).toEqual({ model: 'gpt-4o-mini', messages });
  });

  test('a 400 about something else is thrown, not stepped down, and the next call still asks for json_schema', async () => {
    const client = await clientFor([
      refusal(400, "This model's maximum context length is 128000 tokens."),
      refusal(401, 'Invalid json_schema key'),
      { body: completion(answer) },
    ]);
    const err = await client.complete({ messages, responseFormat: outline }).catch((e) => e);
    expect(err).toBeInstanceOf(VendorRequestRejectedError);
    expect(err.status).toBe(400);
    expect(vendor!.requests).toHaveLength(1);
    // 401 mentions a keyword, but only 400/422 are refusals of the format.
    await expect(client.complete({ messages, responseFormat: outline })).rejects.toMatchObject({ status: 401 });
    expect(vendor!.requests).toHaveLength(2);
    expect((await client.complete({ messages, responseFormat: outline })).structuredMode).toBe('json_schema');
    expect((bodyOf(2).response_format as { type: string }).type).toBe('json_schema');
  });

  test('every structured mode refused: the last refusal is thrown', async () => {
    const client = await clientFor([refusal(400, 'unsupported response_format')], { maxRetries: 0 });
    await expect(client.complete({ messages, responseFormat: outline })).rejects.toBeInstanceOf(
      VendorRequestRejectedError,
    );
    expect(vendor!.requests).toHaveLength(4);
  });
});

describe('streaming', () => {
  const text = 'Keyword research finds the words your customers already type into search engines.';

  test('assembles the text, reports growing progress, and takes usage, model and finish reason from the chunks', async () => {
    const events = streamChunks(text, {
      usage: { prompt_tokens: 31, completion_tokens: 12 },
      finish_reason: 'length',
      model: 'gpt-4o-mini-2024-07-18',
    });
    const client = await clientFor([{ sse: { events, intervalMs: 5 } }]);
    const progress: Array<{ text: string; tokens: number }> = [];
    const out = await client.complete({ messages, maxTokens: 12, onDelta: (p) => progress.push(p) });
    expect(out).toEqual({
      text,
      finishReason: 'length',
      model: 'gpt-4o-mini-2024-07-18',
      usage: { prompt_tokens: 31, completion_tokens: 12 },
      attempts: 1,
      streamed: true,
    });
    const words = text.split(' ').length;
    expect(progress).toHaveLength(words);
    expect(progress.map((p) => p.tokens)).toEqual(Array.from({ length: words }, (_, i) => i + 1));
    for (let i = 1; i < progress.length; i++) expect(progress[i].text.startsWith(progress[i - 1].text)).toBe(true);
    expect(progress[0].text).toBe('Keyword');
    expect(progress.at(-1)!.text).toBe(text);
    expect(bodyOf(0)).toEqual({
      model: 'gpt-4o-mini',
      messages,
      max_tokens: 12,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(vendor!.requests[0].headers.accept).toMatch(/text\/event-stream/);
  });

  test('a pause between chunks longer than timeoutMs: VendorTimeoutError, not retried, connection closed', async () => {
    const client = await clientFor([{ sse: { events: streamChunks(text), hangAfter: 3 } }], { timeoutMs: 300 });
    const seen: string[] = [];
    const started = Date.now();
    const err = await client.complete({ messages, onDelta: (p) => seen.push(p.text) }).catch((e) => e);
    expect(err).toBeInstanceOf(VendorTimeoutError);
    expect(err.timeoutMs).toBe(300);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(seen).toEqual(['Keyword', 'Keyword research']);
    expect(vendor!.requests).toHaveLength(1);
    // A server-side observation that may trail the client by a few ms.
    await waitFor('the vendor to see the connection closed', () => vendor!.requests[0].closedAt !== undefined, 1000, 5);
    expect(vendor!.requests[0].closedAt).toBeDefined();
  });

  test('a long stream whose every gap is short succeeds however long it takes in total', async () => {
    const long = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const client = await clientFor([{ sse: { events: streamChunks(long), intervalMs: 40 } }], { timeoutMs: 400 });
    const started = Date.now();
    const out = await client.complete({ messages, onDelta: () => undefined });
    expect(Date.now() - started).toBeGreaterThan(1000);
    expect(out).toMatchObject({ text: long, streamed: true, attempts: 1 });
  });

  test('cancel mid-stream: rejects with the reason at once and the server sees the connection close', async () => {
    const client = await clientFor([{ sse: { events: streamChunks(text), hangAfter: 4 } }]);
    const controller = new AbortController();
    const reason = new Error('cancelled by the user');
    let abortedAt = 0;
    const pending = client.complete({
      messages,
      signal: controller.signal,
      onDelta: (p) => {
        if (p.tokens === 3)
          setTimeout(() => {
            abortedAt = Date.now();
            controller.abort(reason);
          }, 50);
      },
    });
    const err = await pending.catch((e) => e);
    const rejectedAt = Date.now();
    expect(err).toBe(reason);
    expect(abortedAt).toBeGreaterThan(0);
    expect(rejectedAt - abortedAt).toBeLessThan(100);
    // A server-side observation that may trail the client by a few ms.
    await waitFor('the vendor to see the connection closed', () => vendor!.requests[0].closedAt !== undefined, 1000, 5);
    expect(vendor!.requests[0].closedAt! - abortedAt).toBeLessThan(500);
    expect(vendor!.requests).toHaveLength(1);
  });

  test('a 503 before the first chunk is retried', async () => {
    const client = await clientFor([{ status: 503, body: { error: 'busy' } }, { sse: { events: streamChunks('ok') } }]);
    const out = await client.complete({ messages, onDelta: () => undefined });
    expect(out).toMatchObject({ text: 'ok', attempts: 2, streamed: true });
    expect(vendor!.requests).toHaveLength(2);
  });

  test('no chunk before the time-out is retried too', async () => {
    const client = await clientFor([{ sse: { events: [], hangAfter: 0 } }, { sse: { events: streamChunks('ok') } }], {
      timeoutMs: 300,
    });
    const out = await client.complete({ messages, onDelta: () => undefined });
    expect(out).toMatchObject({ text: 'ok', attempts: 2 });
  });

  test('a connection lost after content started is not retried: VendorUnavailableError', async () => {
    const client = await clientFor([
      { sse: { events: streamChunks(text), breakAfter: 3 } },
      { sse: { events: streamChunks(text) } },
    ]);
    const err = await client.complete({ messages, onDelta: () => undefined }).catch((e) => e);
    expect(err).toBeInstanceOf(VendorUnavailableError);
    expect(err.message).toMatch(/broke off/);
    expect(vendor!.requests).toHaveLength(1);
  });

  test('an error event mid-stream, or data that is not JSON, fails the call', async () => {
    const client = await clientFor([
      { sse: { events: [...streamChunks(text).slice(0, 3), { error: { message: 'model overloaded' } }] } },
      { sse: { events: [streamChunks(text)[0], '{"choices": [ broken'] } },
    ]);
    await expect(client.complete({ messages, onDelta: () => undefined })).rejects.toThrow(/model overloaded/);
    await expect(client.complete({ messages, onDelta: () => undefined })).rejects.toBeInstanceOf(
      VendorBadResponseError,
    );
    expect(vendor!.requests).toHaveLength(2);
  });

  test('a stream without [DONE]: complete when it carried a finish reason, truncated otherwise', async () => {
    const events = streamChunks(text, { usage: null });
    const client = await clientFor([
      { sse: { events, done: false } },
      { sse: { events: events.slice(0, -1), done: false } },
    ]);
    expect(await client.complete({ messages, onDelta: () => undefined })).toMatchObject({ text, finishReason: 'stop' });
    await expect(client.complete({ messages, onDelta: () => undefined })).rejects.toBeInstanceOf(
      VendorUnavailableError,
    );
  });

  test('stream_options refused, then stream refused: plain completion, and later calls do not ask to stream', async () => {
    const client = await clientFor([
      refusal(400, 'Unrecognized request argument supplied: stream_options'),
      refusal(400, 'stream is not supported by this server'),
      { body: completion('plain answer') },
    ]);
    const deltas: string[] = [];
    const out = await client.complete({ messages, onDelta: (p) => deltas.push(p.text) });
    expect(out).toMatchObject({ text: 'plain answer', streamed: false });
    expect(deltas).toEqual([]);
    expect(vendor!.requests).toHaveLength(3);
    expect(bodyOf(0)).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(bodyOf(1)).toMatchObject({ stream: true });
    expect(bodyOf(1)).not.toHaveProperty('stream_options');
    expect(bodyOf(2)).not.toHaveProperty('stream');

    await client.complete({ messages, onDelta: () => undefined });
    expect(vendor!.requests).toHaveLength(4);
    expect(bodyOf(3)).not.toHaveProperty('stream');
  });

  test('only stream_options refused: streams without it from then on', async () => {
    const client = await clientFor([
      refusal(422, 'extra field not permitted: stream_options'),
      { sse: { events: streamChunks(text, { usage: null }) } },
    ]);
    expect(await client.complete({ messages, onDelta: () => undefined })).toMatchObject({ text, streamed: true });
    await client.complete({ messages, onDelta: () => undefined });
    expect(vendor!.requests).toHaveLength(3);
    expect(bodyOf(2)).toMatchObject({ stream: true });
    expect(bodyOf(2)).not.toHaveProperty('stream_options');
  });

  test('a JSON answer to a stream request is read as a completion, and streaming is still asked for next time', async () => {
    const client = await clientFor([
      { body: completion('not streamed', { usage: { prompt_tokens: 5, completion_tokens: 2 } }) },
    ]);
    const out = await client.complete({ messages, onDelta: () => undefined });
    expect(out).toEqual({
      text: 'not streamed',
      finishReason: 'stop',
      model: 'test-model',
      usage: { prompt_tokens: 5, completion_tokens: 2 },
      attempts: 1,
      streamed: false,
    });
    await client.complete({ messages, onDelta: () => undefined });
    expect(bodyOf(1)).toMatchObject({ stream: true });
  });

  test('structured output and streaming together: the format steps down, the stream stays', async () => {
    const client = await clientFor([
      refusal(400, 'response_format json_schema is not supported'),
      { sse: { events: streamChunks(answer) } },
    ]);
    const out = await client.complete({ messages, responseFormat: outline, onDelta: () => undefined });
    expect(out).toMatchObject({ text: answer, structuredMode: 'json_object', streamed: true });
    expect(bodyOf(1)).toMatchObject({ stream: true, response_format: { type: 'json_object' } });
  });
});
