/**
 * The `local` answer to a plain chat prompt: an extractive summary of the
 * prompt itself. It cannot follow instructions (it is not a language model);
 * what it can do deterministically is pick the sentences of the user's text
 * that carry its most frequent content words, so every gateway call still
 * returns something grounded in its input when no vendor is configured.
 *
 * Score of a sentence = mean frequency (across the prompt) of its content
 * words; the best sentences are returned in their original order until the
 * word budget is spent.
 */
import { splitSentences } from '../analysis/sentences';
import { contentKeys } from '../analysis/word-forms';
import { wordsIn } from './text';

export interface PlainMessage {
  role: string;
  content: string;
}

export function extractiveSummary(text: string, maxWords = 120): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  const sentences = splitSentences(clean)
    .map((sp, i) => ({ i, text: clean.slice(sp.start, sp.end).trim() }))
    .filter((s) => s.text);
  if (sentences.length === 0) return '';
  const freq = new Map<string, number>();
  for (const k of contentKeys(clean)) freq.set(k, (freq.get(k) ?? 0) + 1);
  const scored = sentences.map((s) => {
    const keys = contentKeys(s.text);
    return {
      ...s,
      words: wordsIn(s.text),
      score: keys.length ? keys.reduce((n, k) => n + (freq.get(k) ?? 0), 0) / keys.length : 0,
    };
  });
  const chosen: typeof scored = [];
  let words = 0;
  for (const s of [...scored].sort((a, b) => b.score - a.score || a.i - b.i)) {
    if (words + s.words > maxWords && chosen.length > 0) continue;
    chosen.push(s);
    words += s.words;
    if (words >= maxWords * 0.9) break;
  }
  return chosen
    .sort((a, b) => a.i - b.i)
    .map((s) => s.text)
    .join(' ');
}

/** Summary of the user messages of a chat (system instructions are not content to summarise). */
export function localChatAnswer(messages: PlainMessage[], maxWords = 120): string {
  const users = messages.filter((m) => m.role === 'user').map((m) => m.content);
  const text = (users.length ? users : messages.map((m) => m.content)).join('\n\n');
  return extractiveSummary(text, maxWords);
}
