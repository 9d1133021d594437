/** A vendor model's context size: configured, or read once from the server's model list (infra/ai/context-size.ts). */
import { contextOfModelEntry, modelContextTokens } from '../../../infra/ai/context-size';

describe('model context size', () => {
  test('what each kind of server says in its model list', () => {
    expect(contextOfModelEntry({ id: 'm', meta: { n_ctx_train: 8192, n_vocab: 49152 } })).toBe(8192); // llama.cpp
    expect(contextOfModelEntry({ id: 'm', max_model_len: 32768 })).toBe(32768); // vLLM
    expect(contextOfModelEntry({ id: 'm', context_length: 128000 })).toBe(128000); // OpenRouter-style
    expect(contextOfModelEntry({ id: 'm', meta: { n_ctx: 4096, n_ctx_train: 8192 } })).toBe(4096); // served < trained
    expect(contextOfModelEntry({ id: 'gpt-4o-mini', object: 'model', owned_by: 'openai' })).toBeUndefined();
    expect(contextOfModelEntry({ id: 'm', context_length: -1 })).toBeUndefined();
  });

  test('configured wins without asking; otherwise the list is read once and the model found by id', async () => {
    const asked: string[] = [];
    const fetchFn = (async (url: string) => {
      asked.push(url);
      return new Response(
        JSON.stringify({
          data: [
            { id: 'other', max_model_len: 1 },
            { id: 'mine', max_model_len: 16384 },
          ],
        }),
      );
    }) as unknown as typeof fetch;
    expect(await modelContextTokens({ baseUrl: 'http://x/v1', model: 'mine' }, 2048, fetchFn)()).toBe(2048);
    expect(asked).toEqual([]);
    const read = modelContextTokens({ baseUrl: 'http://x/v1/', model: 'mine' }, 0, fetchFn);
    expect(await read()).toBe(16384);
    expect(await read()).toBe(16384);
    expect(asked).toEqual(['http://x/v1/models']);
  });

  test('a server that does not answer leaves it unknown', async () => {
    const failing = (async () => new Response('no', { status: 404 })) as unknown as typeof fetch;
    expect(await modelContextTokens({ baseUrl: 'http://x/v1', model: 'm' }, 0, failing)()).toBeUndefined();
  });
});
