import { countPromptTokens, countTextTokens, countUsage, encodingForModel } from '../../../infra/ai/tokens';
import { backoffMs, postEventStreamWithRetry, retryAfterMs } from '../../../infra/ai/http';
import { VendorBadResponseError } from '../../../infra/ai/errors';

describe('token counting', () => {
  test('a real tokenizer, not words x constant', () => {
    expect(countTextTokens('hello world', 'gpt-4o-mini')).toBe(2);
    expect(countTextTokens('', 'gpt-4o-mini')).toBe(0);
    // URLs and numbers cost far more tokens than words: a words x 1.3 guess would say ~3.
    expect(countTextTokens('https://example.com/a/b?c=1234567890', 'gpt-4o-mini')).toBeGreaterThan(8);
  });

  test('encoding per model family', () => {
    expect(encodingForModel('gpt-4o-mini')).toBe('o200k_base');
    expect(encodingForModel('gpt-4.1')).toBe('o200k_base');
    expect(encodingForModel('gpt-4-turbo')).toBe('cl100k_base');
    expect(encodingForModel('gpt-3.5-turbo')).toBe('cl100k_base');
    expect(encodingForModel('gemini-2.0-flash')).toBe('o200k_base');
  });

  test('prompt framing: 3 tokens per message plus 3 to prime the reply', () => {
    const m = [{ role: 'user' as const, content: 'hello world' }];
    expect(countPromptTokens(m, 'gpt-4o')).toBe(3 + 3 + 1 + 2);
  });

  test('reported usage wins per side; missing sides are counted', () => {
    const m = [{ role: 'user' as const, content: 'hello world' }];
    expect(countUsage(m, 'hi there', 'gpt-4o', { prompt_tokens: 40, completion_tokens: 9 })).toEqual({
      tokens_in: 40,
      tokens_out: 9,
      source: 'vendor',
    });
    expect(countUsage(m, 'hi there', 'gpt-4o')).toEqual({ tokens_in: 9, tokens_out: 2, source: 'tokenizer' });
    expect(countUsage(m, 'hi there', 'gpt-4o', { prompt_tokens: 40 })).toEqual({
      tokens_in: 40,
      tokens_out: 2,
      source: 'tokenizer',
    });
  });
});

describe('retry timing', () => {
  test('Retry-After in seconds, as an HTTP date, and retry-after-ms', () => {
    const now = () => Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Tue, 31 Dec 2024 23:00:00 GMT' }), now)).toBe(0);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  });

  test('exponential backoff with equal jitter, capped', () => {
    expect(backoffMs(0, 500, 20_000, () => 0)).toBe(250);
    expect(backoffMs(0, 500, 20_000, () => 1)).toBe(500);
    expect(backoffMs(3, 500, 20_000, () => 0.5)).toBe(3000);
    expect(backoffMs(10, 500, 20_000, () => 1)).toBe(20_000);
  });
});

describe('event-stream parsing', () => {
  /** A fetch whose answer arrives in exactly these chunks (chunk boundaries are where parsers break). */
  const fetchOf =
    (chunks: Array<string | Uint8Array>, contentType = 'text/event-stream'): typeof fetch =>
    async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(c) {
            for (const x of chunks) c.enqueue(typeof x === 'string' ? new TextEncoder().encode(x) : x);
            c.close();
          },
        }),
        { headers: { 'content-type': contentType } },
      );
  const read = async (chunks: Array<string | Uint8Array>, contentType?: string) => {
    const events: unknown[] = [];
    const res = await postEventStreamWithRetry(
      'http://vendor.invalid/v1/chat/completions',
      {},
      {},
      { vendor: 'vendor_a', timeoutMs: 1000, maxRetries: 0, fetch: fetchOf(chunks, contentType) },
      (e) => events.push(e),
    );
    return { res, events };
  };

  test('events split anywhere: mid-line, mid-character, CRLF, comments, multi-line data', async () => {
    const accented = new TextEncoder().encode('data: {"t":"é"}\r\n\r\n');
    const cut = accented.indexOf(0xc3) + 1; // inside the two bytes of é
    const { res, events } = await read([
      ': keep-alive\n\n',
      'data: {"a"',
      ':1}\n\nda',
      'ta: {"b":\ndata:2}\n\nevent: ignored\n',
      accented.slice(0, cut),
      accented.slice(cut),
      'data: [DONE]\n\n',
    ]);
    expect(events).toEqual([{ a: 1 }, { b: 2 }, { t: 'é' }]);
    expect(res).toMatchObject({ streamed: true, done: true, attempts: 1 });
  });

  test('a last event without its blank line still counts; no [DONE] is reported', async () => {
    const { res, events } = await read(['data: {"a":1}\n\ndata: {"a":2}']);
    expect(events).toEqual([{ a: 1 }, { a: 2 }]);
    expect(res).toMatchObject({ streamed: true, done: false });
  });

  test('data that is not JSON is a bad response; a JSON answer is returned as a body', async () => {
    await expect(read(['data: not json\n\n'])).rejects.toBeInstanceOf(VendorBadResponseError);
    const { res, events } = await read(['{"ok":', 'true}'], 'application/json');
    expect(events).toEqual([]);
    expect(res).toEqual({ status: 200, attempts: 1, streamed: false, body: { ok: true } });
  });
});
