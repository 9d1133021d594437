/**
 * keywordInsights: the offline writer's reading of a keyword list: search
 * intent and clusters. No numbers: volumes, competition and corpus counts
 * come from the keyword report (domain/keywords/report.ts) with their source.
 *
 * Intent is decided by modifier words (the usual SEO convention): buying
 * words → transactional; comparison words and product kinds (tool, software,
 * agency) → commercial; brand/access words →
 * navigational; question and learning words → informational. A keyword
 * without any modifier is labelled informational with the signal "no
 * modifier", so a reader can tell a rule from a default.
 * Clusters group keywords by their most shared content word (folded word
 * forms), named by the shortest keyword of the cluster.
 */
import { wordKey } from '../analysis/word-forms';
import { STOPWORDS } from '../analysis/stopwords';

export type Intent = 'informational' | 'commercial' | 'transactional' | 'navigational';

export interface KeywordInsightsInput {
  keywords: string[];
  language?: string;
}

export interface KeywordInsights {
  keywords: Array<{ keyword: string; intent: Intent; intent_signal: string }>;
  clusters: Array<{ name: string; keywords: string[] }>;
}

const MODIFIERS: Array<[Intent, RegExp]> = [
  [
    'transactional',
    /\b(buy|price|prices|pricing|cost|costs|cheap|discount|deal|deals|coupon|order|hire|quote|subscription|near me|for sale|free trial)\b/i,
  ],
  [
    'commercial',
    /\b(best|top|vs|versus|review|reviews|comparison|compare|alternative|alternatives|rated|tool|tools|software|platform|services?|agency|agencies)\b/i,
  ],
  ['navigational', /\b(login|log in|sign in|sign up|official|website|download|contact|account)\b/i],
  [
    'informational',
    /\b(how|what|why|when|who|where|guide|tutorial|tips|examples?|ideas|definition|meaning|learn|checklist|strategy|strategies|template|basics)\b/i,
  ],
];

export function intentOf(keyword: string): { intent: Intent; intent_signal: string } {
  for (const [intent, re] of MODIFIERS) {
    const m = re.exec(keyword);
    if (m) return { intent, intent_signal: `modifier "${m[0].toLowerCase()}"` };
  }
  return { intent: 'informational', intent_signal: 'no modifier (default)' };
}

const keysOf = (k: string) =>
  k
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 2 && !STOPWORDS.has(w))
    .map(wordKey);

export function keywordInsights(input: KeywordInsightsInput): KeywordInsights {
  const keywords = [...new Set(input.keywords.map((k) => k.trim()).filter(Boolean))];
  const freq = new Map<string, number>();
  for (const k of keywords) for (const key of new Set(keysOf(k))) freq.set(key, (freq.get(key) ?? 0) + 1);
  const groups = new Map<string, string[]>();
  for (const k of keywords) {
    const keys = keysOf(k);
    // The keyword's most shared word; ties go to the earlier word of the keyword.
    const head = keys.reduce((best, key) => ((freq.get(key) ?? 0) > (freq.get(best) ?? 0) ? key : best), keys[0] ?? k);
    groups.set(head, [...(groups.get(head) ?? []), k]);
  }
  return {
    keywords: keywords.map((keyword) => ({ keyword, ...intentOf(keyword) })),
    clusters: [...groups.values()]
      .sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]))
      .map((ks) => ({ name: [...ks].sort((a, b) => a.length - b.length || a.localeCompare(b))[0], keywords: ks })),
  };
}
