/**
 * A text vendor's model context size, which the gateway cuts completion budgets to (infra/ai/completion-budget.ts,
 * `completionBudget`). Configured (`VENDOR_A_CONTEXT_TOKENS`) it is taken as it is; otherwise the server's model
 * list (`GET {base}/models`) is read once: llama.cpp-based servers say `n_ctx` (llama-cpp-python, llama.cpp's
 * own server under `meta`), vLLM `max_model_len`, OpenRouter-style lists `context_length`. A server that says
 * nothing (OpenAI) leaves it unknown, and each task's budget is sent as it is.
 */
import type { VendorSettings } from './openai-compatible';

const FIELDS = ['n_ctx', 'max_model_len', 'context_length', 'context_window', 'n_ctx_train'] as const;

/** The context size a model-list entry states, looking in the entry and its `meta`/`metadata`. */
export function contextOfModelEntry(entry: unknown): number | undefined {
  if (!entry || typeof entry !== 'object') return undefined;
  const places = [entry, (entry as { meta?: unknown }).meta, (entry as { metadata?: unknown }).metadata];
  for (const field of FIELDS)
    for (const place of places) {
      const v = place && typeof place === 'object' ? (place as Record<string, unknown>)[field] : undefined;
      if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
    }
  return undefined;
}

/**
 * The model's context size, read once per process (a failed read is tried again on the next call, at most once a
 * minute). `configured` > 0 wins over the server.
 */
export function modelContextTokens(
  settings: Pick<VendorSettings, 'baseUrl' | 'apiKey' | 'model'>,
  configured: number,
  fetchFn: typeof fetch = fetch,
): () => Promise<number | undefined> {
  if (configured > 0) return async () => configured;
  let known: number | undefined;
  let lastTry = 0;
  return async () => {
    if (known !== undefined || Date.now() - lastTry < 60_000) return known;
    lastTry = Date.now();
    try {
      const res = await fetchFn(`${settings.baseUrl.replace(/\/+$/, '')}/models`, {
        headers: settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {},
        signal: AbortSignal.timeout(5000),
      });
      if (!res.ok) return undefined;
      const body = (await res.json()) as { data?: unknown[] };
      const entries = Array.isArray(body?.data) ? body.data : [];
      const mine =
        entries.find((e) => (e as { id?: unknown })?.id === settings.model) ??
        (entries.length === 1 ? entries[0] : undefined);
      known = contextOfModelEntry(mine);
    } catch {
      known = undefined;
    }
    return known;
  };
}
