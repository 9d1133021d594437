/**
 * Text generators for metadata: title options, meta descriptions, tags,
 * categories and hashtags. Deterministic templates over the post's own
 * words (no AI call): routes may still ask a model for alternatives and
 * validate them with the same length/width rules.
 */
import { TextDocument, wordsOf } from './text';
import { mentions, wordKey } from './word-forms';
import { STOPWORDS } from './stopwords';
import { fitsTitleWidth } from './pixel-width';
import { asciiFold } from './slug';

export const META_MIN = 120;
export const META_MAX = 156;

const SMALL = new Set([
  'a',
  'an',
  'and',
  'as',
  'at',
  'but',
  'by',
  'for',
  'in',
  'of',
  'on',
  'or',
  'the',
  'to',
  'vs',
  'with',
]);

export function titleCase(s: string): string {
  return s
    .split(/\s+/)
    .map((w, i) => (i > 0 && SMALL.has(w.toLowerCase()) ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ');
}

export function titleOptions(title: string, focus: string, doc: TextDocument, year: number): string[] {
  const kw = titleCase(focus);
  const h2 = doc.blocks.filter((b) => b.kind === 'heading' && b.level === 2).length;
  const raw = [
    title,
    focus && !mentions(title, focus) ? `${kw}: ${title}` : '',
    focus ? `${kw}: A Practical Guide for ${year}` : '',
    focus && h2 >= 3 ? `${h2} Key Ideas About ${kw}` : '',
    focus ? `${kw} Explained: What You Need to Know` : '',
    focus ? `How to Get Started with ${kw}` : '',
  ];
  const seen = new Set<string>();
  return raw
    .map((t) => t.trim())
    .filter((t) => t !== '' && fitsTitleWidth(t) && !seen.has(t.toLowerCase()) && (seen.add(t.toLowerCase()), true))
    .slice(0, 5);
}

/** Cut at a word boundary so the result, plus "…", is at most `max` characters. */
function cutWords(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const at = cut.lastIndexOf(' ');
  return (at >= META_MIN + 2 ? cut.slice(0, at) : cut).replace(/[\s,;:.–—-]+$/, '') + '…';
}

/**
 * A 120-156 character description containing the focus keyword: keyword
 * prefixed when the base sentence lacks it, short bases padded with
 * keyword-bearing filler sentences, long ones cut at a word boundary.
 */
export function fitDescription(base: string, focus: string): string {
  let d = base.replace(/\s+/g, ' ').trim();
  if (focus && !mentions(d, focus)) d = d ? `${titleCase(focus)}: ${d}` : `${titleCase(focus)} explained.`;
  const fillers = [
    `Learn what matters about ${focus || 'this topic'} and how to apply it.`,
    'A practical guide with clear steps and examples.',
    'Read the full article for details and tips.',
    'Updated and easy to follow.',
  ];
  for (const f of fillers) {
    if (d.length >= META_MIN) break;
    d = `${d} ${f}`.trim();
  }
  const out = cutWords(d, META_MAX);
  // the keyword sat beyond the cut: put it first and cut again
  return focus && !mentions(out, focus) ? cutWords(`${titleCase(focus)}: ${out}`, META_MAX) : out;
}

export function metaDescriptions(doc: TextDocument, focus: string): string[] {
  const body = doc.sentences.filter((s) => s.blockKind !== 'heading' && s.blockKind !== 'list_item');
  const bases: string[] = [];
  const intro: string[] = [];
  for (const s of body) {
    if (intro.join(' ').length >= META_MIN) break;
    intro.push(s.text);
  }
  bases.push(intro.join(' '));
  const i = body.findIndex((s) => focus !== '' && mentions(s.text, focus));
  if (i >= 0)
    bases.push(
      body
        .slice(i, i + 2)
        .map((s) => s.text)
        .join(' '),
    );
  const h2 = doc.blocks.filter((b) => b.kind === 'heading' && b.level === 2).map((b) => b.text.trim());
  if (h2.length > 0) bases.push(`${titleCase(focus || h2[0])}: ${h2.slice(0, 3).join(', ')}.`);
  const seen = new Set<string>();
  return bases
    .map((b) => fitDescription(b, focus))
    .filter((d) => !seen.has(d) && (seen.add(d), true))
    .slice(0, 3);
}

/** Frequent content terms (and two-word phrases) with their most common surface form. */
export function topTerms(doc: TextDocument, limit: number): string[] {
  const counts = new Map<string, { n: number; surface: string }>();
  const bump = (key: string, surface: string, weight = 1): void => {
    const e = counts.get(key) ?? { n: 0, surface };
    e.n += weight;
    counts.set(key, e);
  };
  for (const s of doc.sentences) {
    const words = wordsOf(s).filter((t) => t.kind === 'word');
    const ok = words.map((t) => t.text.length > 2 && !STOPWORDS.has(t.text.toLowerCase()));
    words.forEach((t, i) => {
      if (!ok[i]) return;
      bump(wordKey(t.text), t.text.toLowerCase());
      // phrases weigh 1.5x: "content marketing" beats "content" when both repeat
      if (i + 1 < words.length && ok[i + 1])
        bump(`${wordKey(t.text)} ${wordKey(words[i + 1].text)}`, `${t.text} ${words[i + 1].text}`.toLowerCase(), 1.5);
    });
  }
  return [...counts.entries()]
    .filter(([, e]) => e.n >= 2)
    .sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([, e]) => e.surface);
}

export function blogTags(doc: TextDocument, focus: string, secondary: string[], max = 8): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of [focus, ...secondary, ...topTerms(doc, 20)]) {
    const tag = t.trim().toLowerCase();
    const key = tag.split(/\s+/).map(wordKey).join(' ');
    if (tag === '' || seen.has(key)) continue;
    // a single word already inside a chosen phrase adds nothing ("content" after "content marketing")
    if (!key.includes(' ') && [...seen].some((k) => k.split(' ').includes(key))) continue;
    seen.add(key);
    out.push(tag);
    if (out.length >= max) break;
  }
  return out;
}

const CATEGORIES: Record<string, string> = {
  Technology:
    'software app data cloud ai computer code developer api digital algorithm device tech automation platform',
  Marketing:
    'marketing seo brand audience campaign content social advertising customer email traffic conversion funnel',
  Business: 'business company startup revenue management strategy team growth market sales leadership profit',
  Finance: 'finance money investment budget tax bank loan credit stock saving price cost payment',
  Health: 'health medical doctor patient fitness diet sleep exercise disease mental nutrition therapy',
  Education: 'education learning student school course teacher study training skill lesson university',
  Science: 'science research study experiment climate energy physics biology chemistry scientist',
  Lifestyle: 'home travel food recipe family fashion hobby garden cooking wellness',
};

/** Up to two categories whose cue words occur at least twice; "General" otherwise. */
export function blogCategories(doc: TextDocument): string[] {
  const freq = new Map<string, number>();
  for (const s of doc.sentences)
    for (const t of wordsOf(s)) freq.set(wordKey(t.text), (freq.get(wordKey(t.text)) ?? 0) + 1);
  const scored = Object.entries(CATEGORIES)
    .map(([name, cues]) => ({ name, n: cues.split(' ').reduce((sum, c) => sum + (freq.get(wordKey(c)) ?? 0), 0) }))
    .filter((c) => c.n >= 2)
    .sort((a, b) => b.n - a.n);
  return scored.length ? scored.slice(0, 2).map((c) => c.name) : ['General'];
}

/** "#ContentMarketing" from "content marketing"; ASCII letters and digits only. */
export function hashtags(tags: string[], max = 5): string[] {
  const out = tags
    .map(
      (t) =>
        '#' +
        asciiFold(t)
          .split(/[^A-Za-z0-9]+/)
          .filter(Boolean)
          .map((w) => w[0].toUpperCase() + w.slice(1))
          .join(''),
    )
    .filter((h) => h.length > 2);
  return [...new Set(out)].slice(0, max);
}
