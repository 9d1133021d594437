/**
 * The offline (`local` provider) answers of the synchronous blog edits:
 * enhance one outline section, optimize an outline, revise a section's text.
 * They are rule-based edits, not a language model: each rule below changes
 * the input only where it finds the problem it checks, and every change is
 * named in `improvements_made`, so a client never gets an invented claim.
 * A vendor, when configured, is asked for the same shapes (prompts-sync.ts).
 */
import { largestRemainder, splitSentences } from '../analysis';
import { titleCase } from '../analysis/metadata-text';
import { contentKeys, mentions } from '../analysis/word-forms';
import { mean, stdev } from '../analysis/vectors';
import type { OutlineSection } from '../analysis/types';

export interface EnhancedSection {
  heading: string;
  subheadings: string[];
  key_points: string[];
  keywords: string[];
  improvements_made: string[];
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
const wordCount = (s: string) => (s.match(/\S+/g) ?? []).length;
const keyOf = (s: string) => [...new Set(contentKeys(s))].sort().join(' ');
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function dedupe(items: string[]): { kept: string[]; dropped: number } {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const raw of items) {
    const s = norm(raw);
    const k = keyOf(s) || s.toLowerCase();
    if (!s || seen.has(k)) continue;
    seen.add(k);
    kept.push(s);
  }
  return { kept, dropped: items.length - kept.length };
}

/** Shortens a key point over 20 words to its first clause (at `;`, ` - `, `, which`, `, because`). */
function tighten(point: string): string {
  if (wordCount(point) <= 20) return point;
  const m = /^(.{20,}?)(?:;|\s[-–—]\s|,\s(?:which|because|although|while)\s)/.exec(point);
  return m ? m[1].trim() : point;
}

/**
 * Rules, in order: whitespace and duplicate key points/subheadings removed;
 * key points over 20 words cut to their first clause; keywords the section
 * never mentions get a key point (at most 2); focus cues — "example",
 * "practical", "case" add an example point; "data", "evidence", "statistic",
 * "research", "credib" add an evidence point per unmentioned reference (at
 * most 2); "reader", "audience", "beginner" add a takeaway point; fewer than
 * 3 key points are filled from uncovered subheadings; fewer than 2
 * subheadings are made from the key points of at most 8 words (up to 3).
 */
export function enhanceSectionOffline(section: OutlineSection, focus: string): EnhancedSection {
  const improvements: string[] = [];
  const heading = norm(section.heading);
  const keywords = dedupe(section.keywords ?? []).kept;
  const kp = dedupe(section.key_points ?? []);
  const sh = dedupe(section.subheadings ?? []);
  let points = kp.kept;
  let subs = sh.kept;
  if (kp.dropped) improvements.push(`Removed ${plural(kp.dropped, 'duplicate key point')}`);
  if (sh.dropped) improvements.push(`Removed ${plural(sh.dropped, 'duplicate subheading')}`);
  const tightened = points.map(tighten);
  const nTight = tightened.filter((p, i) => p !== points[i]).length;
  if (nTight) improvements.push(`Cut ${plural(nTight, 'key point')} over 20 words to the first clause`);
  points = tightened;

  const covered = (phrase: string) => [heading, ...subs, ...points].some((t) => mentions(t, phrase));
  const missing = keywords.filter((k) => !covered(k)).slice(0, 2);
  for (const k of missing) points.push(`How ${k} applies to ${heading.toLowerCase()}`);
  if (missing.length)
    improvements.push(`Added key points covering the keywords ${missing.map((k) => `"${k}"`).join(', ')}`);

  const f = focus.toLowerCase();
  if (/example|practical|case/.test(f) && !points.some((p) => /example|case study/i.test(p))) {
    points.push(`A concrete example of ${heading.toLowerCase()}`);
    improvements.push('Added a key point for a concrete example (focus: examples)');
  }
  if (/data|evidence|statistic|research|credib/.test(f)) {
    const refs = (section.references ?? [])
      .filter((r) => r.title && !points.some((p) => p.includes(r.title)))
      .slice(0, 2);
    for (const r of refs) points.push(`Evidence from “${r.title}”`);
    if (refs.length)
      improvements.push(
        `Added ${plural(refs.length, 'evidence point')} from the section's references (focus: evidence)`,
      );
  }
  if (/reader|audience|beginner/.test(f) && !points.some((p) => /takeaway|what this means/i.test(p))) {
    points.push('What this means for the reader');
    improvements.push('Added a reader takeaway (focus: audience)');
  }
  if (points.length < 3) {
    const extra = subs.filter((s) => !points.some((p) => mentions(p, s))).slice(0, 3 - points.length);
    if (extra.length) {
      points.push(...extra);
      improvements.push(`Added ${plural(extra.length, 'key point')} from uncovered subheadings`);
    }
  }
  const short = points.filter((p) => wordCount(p) <= 8);
  if (subs.length < 2 && short.length >= 2) {
    subs = dedupe([...subs, ...short.slice(0, 3).map((p) => titleCase(p.replace(/[.,;:]+$/, '')))]).kept;
    improvements.push('Derived subheadings from the short key points');
  }
  if (improvements.length === 0)
    improvements.push(
      `No rule-based change was needed for the focus "${focus}": no duplicates, long key points or uncovered keywords`,
    );
  return { heading, subheadings: subs, key_points: points, keywords, improvements_made: improvements };
}

export interface OptimizedOutline {
  outline: OutlineSection[];
  improvements_made: string[];
}

/**
 * Rules: headings trimmed and cut to 70 characters at a word boundary;
 * repeated headings numbered ("(part 2)"); sections without key points get
 * their subheadings as key points; unbalanced target_words (coefficient of
 * variation > 0.5) moved halfway to the mean with the total kept exact
 * (largest remainder); focus "seo"/"keyword": sections without keywords get
 * the outline's keywords their heading mentions.
 */
export function optimizeOutlineOffline(outline: OutlineSection[], focus: string): OptimizedOutline {
  const improvements: string[] = [];
  let out = outline.map((s) => ({ ...s, heading: norm(s.heading) }));
  let cut = 0;
  out = out.map((s) => {
    if (s.heading.length <= 70) return s;
    cut++;
    const c = s.heading.slice(0, 70);
    return { ...s, heading: c.slice(0, Math.max(c.lastIndexOf(' '), 40)).replace(/[\s,;:–—-]+$/, '') };
  });
  if (cut) improvements.push(`Shortened ${plural(cut, 'heading')} over 70 characters`);
  const seen = new Map<string, number>();
  let renamed = 0;
  out = out.map((s) => {
    const k = s.heading.toLowerCase();
    const n = (seen.get(k) ?? 0) + 1;
    seen.set(k, n);
    if (n === 1) return s;
    renamed++;
    return { ...s, heading: `${s.heading} (part ${n})` };
  });
  if (renamed) improvements.push(`Numbered ${plural(renamed, 'repeated heading')}`);
  let filled = 0;
  out = out.map((s) => {
    if ((s.key_points ?? []).length || !(s.subheadings ?? []).length) return s;
    filled++;
    return { ...s, key_points: [...(s.subheadings ?? [])] };
  });
  if (filled) improvements.push(`Gave ${plural(filled, 'section')} without key points their subheadings as key points`);
  const targets = out.map((s) => (typeof s.target_words === 'number' && s.target_words > 0 ? s.target_words : 0));
  const known = targets.filter((t) => t > 0);
  if (known.length === targets.length && known.length > 1 && stdev(known) / mean(known) > 0.5) {
    const m = mean(known);
    const total = known.reduce((a, b) => a + b, 0);
    const next = largestRemainder(
      total,
      known.map((t) => (t + m) / 2),
    );
    const before = stdev(known) / m;
    out = out.map((s, i) => ({ ...s, target_words: next[i] }));
    improvements.push(
      `Balanced target_words (coefficient of variation ${before.toFixed(2)} → ${(stdev(next) / m).toFixed(2)}, total ${total} kept)`,
    );
  }
  if (/seo|keyword/i.test(focus)) {
    const all = [...new Set(out.flatMap((s) => s.keywords ?? []))];
    let given = 0;
    out = out.map((s) => {
      if ((s.keywords ?? []).length) return s;
      const ks = all.filter((k) => mentions(s.heading, k));
      if (!ks.length) return s;
      given++;
      return { ...s, keywords: ks };
    });
    if (given)
      improvements.push(`Assigned keywords to ${plural(given, 'section')} whose heading mentions them (focus: SEO)`);
  }
  if (improvements.length === 0)
    improvements.push(
      `No rule-based change was needed for the focus "${focus}": headings, key points and word targets already pass`,
    );
  return { outline: out, improvements_made: improvements };
}

export interface RevisedText {
  content: string;
  improvements_made: string[];
}

const FILLERS = /(?<=\S\s)(very|really|actually|basically|quite|just|simply|literally)\s(?=\S)/g;
const PROSE = (block: string) => !/^(#|```|~~~|\||>|\s*([-*+]|\d+[.)])\s)/.test(block);
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Splits a sentence over 25 words once, at `; `, `, and `, `, but ` or `, so ` when both halves keep 6+ words. */
function splitLong(sentence: string): string | null {
  if (wordCount(sentence) <= 25) return null;
  const re = /(;\s|,\s(?:and|but|so)\s)/g;
  let best: { at: number; len: number; sep: string } | null = null;
  for (let m = re.exec(sentence); m; m = re.exec(sentence)) {
    const left = wordCount(sentence.slice(0, m.index));
    const right = wordCount(sentence.slice(m.index + m[0].length));
    if (left < 6 || right < 6) continue;
    const balance = Math.abs(left - right);
    if (
      !best ||
      balance < Math.abs(wordCount(sentence.slice(0, best.at)) - wordCount(sentence.slice(best.at + best.len)))
    )
      best = { at: m.index, len: m[0].length, sep: m[0] };
  }
  if (!best) return null;
  const rest = sentence.slice(best.at + best.len);
  const lead = /but/.test(best.sep) ? 'But ' : /so/.test(best.sep) ? 'So ' : '';
  return `${sentence.slice(0, best.at).replace(/[,;]$/, '')}. ${lead ? lead + rest : cap(rest)}`;
}

/**
 * Rules on prose paragraphs only (headings, lists, quotes, tables and code
 * are left as they are): filler words (very, really, actually, basically,
 * quite, just, simply, literally) removed inside sentences; sentences over
 * 25 words split once at a clause boundary; paragraphs over 150 words broken
 * at the sentence boundary nearest their middle. Citations are kept.
 */
export function reviseSectionOffline(content: string): RevisedText {
  let fillers = 0;
  let splits = 0;
  let breaks = 0;
  const blocks = content.split(/\n\s*\n/).map((block) => {
    if (!PROSE(block.trimStart())) return block;
    let text = block.replace(/\s+/g, ' ').trim();
    text = text.replace(FILLERS, () => {
      fillers++;
      return '';
    });
    const spans = splitSentences(text);
    const sentences = spans.map((sp, i) =>
      text.slice(sp.start, i + 1 < spans.length ? spans[i + 1].start : text.length).trim(),
    );
    const out = sentences.map((s) => {
      const r = splitLong(s);
      if (r) splits++;
      return r ?? s;
    });
    const words = out.map(wordCount);
    const total = words.reduce((a, b) => a + b, 0);
    if (total > 150 && out.length > 1) {
      let acc = 0;
      let at = 1;
      let bestGap = Infinity;
      for (let i = 1; i < out.length; i++) {
        acc += words[i - 1];
        if (Math.abs(total / 2 - acc) < bestGap) [bestGap, at] = [Math.abs(total / 2 - acc), i];
      }
      breaks++;
      return `${out.slice(0, at).join(' ')}\n\n${out.slice(at).join(' ')}`;
    }
    return out.join(' ');
  });
  const improvements: string[] = [];
  if (fillers) improvements.push(`Removed ${plural(fillers, 'filler word')}`);
  if (splits) improvements.push(`Split ${plural(splits, 'sentence')} over 25 words at a clause boundary`);
  if (breaks) improvements.push(`Broke ${plural(breaks, 'paragraph')} over 150 words in two`);
  if (!improvements.length)
    improvements.push(
      'No rule-based edit applied: no filler words, sentences over 25 words or paragraphs over 150 words',
    );
  return { content: blocks.join('\n\n'), improvements_made: improvements };
}
