/**
 * The one definition of a chat message and of reading a JSON answer, for every area's prompts, the AI gateway
 * and the in-process model (pure; infra/ai re-exports them). Before this, five modules declared their own copy.
 */

/** One message of a chat prompt (OpenAI-compatible roles; `developer` and `tool` are passed through to vendors). */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool' | 'developer';
  content: string;
  name?: string;
}

/** The messages the platform's own prompts use: a system line, worked examples and the task. */
export interface ChatTurn extends ChatMessage {
  role: 'system' | 'user' | 'assistant';
}

/**
 * The numbered source list of a prompt, one line each: `[n] Title (url) — excerpt`, numbered by the source's own
 * `index` (else its place); `empty` when there are none. Citations `[n]` in the answer refer to these numbers.
 */
export function numberedSources(
  sources: ReadonlyArray<{ index?: number; title: string; url: string; excerpt?: string }> = [],
  empty = '',
): string {
  return sources.map((s, i) => `[${s.index ?? i + 1}] ${s.title} (${s.url}) — ${s.excerpt ?? ''}`).join('\n') || empty;
}

/** Parses a JSON object from a model's or vendor's answer (tolerates a ```json fence and prose around it). */
export function parseJsonAnswer(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  const body = (fenced ? fenced[1] : text).trim();
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end < start) throw new Error('the answer holds no JSON object');
  return JSON.parse(body.slice(start, end + 1));
}
