/**
 * The quality gate every piece of model text passes before it replaces the
 * template writer's text. A small model is fluent but unreliable: it talks
 * about its task ("Here's a rewritten version:"), loops, drifts into another
 * language, drops or invents numbers and names, wanders off the subject, or
 * turns a sentence's meaning around ("usually beats" -> "rarely beats").
 * Each check below refuses one of those; a refused piece keeps the template
 * writer's text and the reason is reported (docs/providers.md).
 *
 * Pure: the same text always gets the same verdict.
 */
import { splitSentences } from '../analysis/sentences';
import { STOPWORDS } from '../analysis/stopwords';
import { tokenize } from '../analysis/words';
import { contentKeys } from '../analysis/word-forms';
import { checkClaims, checkStatement, ClaimSource } from '../analysis/claims';
import type { CopyForm, GateReason } from './model-plan';

export type Verdict = { ok: true; text: string } | { ok: false; reason: GateReason };

const LABEL =
  /^\s*(?:\*\*)?(?:rewritten(?: sentence| text| version)?|sentence|headline|title|subject(?: line)?|post|social post|caption|hook|opening(?: sentence)?|answer)(?:\*\*)?\s*:\s*/i;
const META_OPENER = /^\s*(?:here(?:'s| is| are)|sure\b|certainly\b|of course\b|okay\b|ok\b)[^:\n]*:\s*/i;
const META_ANYWHERE =
  /\b(?:rewritten|rephrased|original (?:sentence|text|paragraph|meaning)|as an ai|i(?: have|'ve|’ve) (?:made|kept|maintained|replaced|rewritten|changed)|i made|in this (?:version|rewrite))\b/i;
const SINGLE_LINE: ReadonlySet<CopyForm> = new Set(['hook', 'headline', 'subject_line']);

const words = (text: string): string[] => tokenize(text).map((t) => t.text.toLowerCase());
const sentencesOf = (text: string): string[] => splitSentences(text).map((s) => text.slice(s.start, s.end).trim());

/** Strips the wrapping a small model puts around its answer: labels, "Here's ...:", quotes, bold, list dashes. */
export function cleanModelText(raw: string, singleLine: boolean): string {
  let t = raw.replace(/\r/g, '').trim();
  for (let i = 0; i < 3; i++) t = t.replace(META_OPENER, '').replace(LABEL, '').trim();
  if (singleLine) t = (t.split('\n').find((l) => l.trim()) ?? '').trim();
  t = t.replace(/\n{3,}/g, '\n\n').replace(/^[-*•]\s+/, '');
  const quoted = /^["“'‘](.+)["”'’]$/s.exec(t);
  if (quoted && !/["“”]/.test(quoted[1])) t = quoted[1].trim();
  return t.replace(/\*\*/g, '').trim();
}

/** Loops and stutters: a sentence said twice, or few distinct word triples among many. */
export function isRepetitive(text: string): boolean {
  const sentences = sentencesOf(text).map((s) => s.toLowerCase().replace(/[^\p{L}\p{N} ]/gu, ''));
  if (new Set(sentences).size < sentences.length) return true;
  const w = words(text);
  if (/\b(\w+)(?:\W+\1\b){2,}/i.test(text)) return true;
  const counts = new Map<string, number>();
  for (const x of w) if (!STOPWORDS.has(x)) counts.set(x, (counts.get(x) ?? 0) + 1);
  const top = Math.max(0, ...counts.values());
  if (w.length >= 6 && top >= 3 && top / w.length > 0.25) return true;
  if (w.length < 12) return false;
  const triples = w.slice(2).map((_, i) => `${w[i]} ${w[i + 1]} ${w[i + 2]}`);
  return new Set(triples).size / triples.length < 0.75 || top / w.length > 0.2;
}

/** Letters, nearly all of them A-Z (accents of a borrowed word allowed). */
function latinScript(text: string): boolean {
  const letters = [...text].filter((c) => /\p{L}/u.test(c));
  return letters.length > 0 && letters.filter((c) => /[A-Za-z]/.test(c)).length / letters.length >= 0.95;
}

/** English (the only language the prompts ask for): Latin letters, and function words in any longer text. */
export function looksEnglish(text: string): boolean {
  if (!latinScript(text)) return false;
  const w = tokenize(text).filter((t) => t.kind === 'word');
  if (w.length < 8) return true;
  return w.filter((t) => STOPWORDS.has(t.text.toLowerCase())).length / w.length >= 0.15;
}

/** Numbers as written (45%, 1,000, 2024), normalised. */
export function numbersIn(text: string): string[] {
  return tokenize(text)
    .filter((t) => t.kind === 'number' || /^\d/.test(t.text))
    .map((t) => t.text.replace(/,/g, '').replace(/^[$€£]/, ''));
}

/** Capitalised words in the middle of a sentence: names, brands, places. */
export function namesIn(text: string): string[] {
  return [...text.matchAll(/[^.!?:\s"“(]\s+(\p{Lu}[\p{L}'’-]+)/gu)].map((m) => m[1]).filter((n) => n !== 'I');
}

/** The text cut after its last sentence that ends within `maxChars`; undefined when even the first does not fit. */
export function trimAtSentence(text: string, maxChars: number): string | undefined {
  if ([...text].length <= maxChars) return text;
  let best: string | undefined;
  for (const s of splitSentences(text)) {
    const head = text.slice(0, s.end).trim();
    if ([...head].length > maxChars) break;
    if (/[.!?]["”’)]*$/.test(head)) best = head;
  }
  return best;
}

const common = (text: string): GateReason | undefined => {
  if (!/\p{L}/u.test(text)) return 'empty';
  // Before the word count: a script without spaces between words (Chinese, Japanese) tokenizes as one "word".
  if (!latinScript(text)) return 'off_language';
  if (words(text).length < 2) return 'empty';
  if (META_ANYWHERE.test(text)) return 'meta_talk';
  if (isRepetitive(text)) return 'repetitive';
  if (!looksEnglish(text)) return 'off_language';
  return undefined;
};

const novel = (candidate: string[], known: ReadonlySet<string>): string[] => candidate.filter((x) => !known.has(x));

/**
 * The claim checker's share threshold for a rewrite checked against the
 * sentence it rewrote: the same half as `meaning_drift`, so what decides
 * `meaning_changed` is what the words say (negation, antonyms, swapped
 * comparison, hedges, numbers), not how many of them changed.
 */
export const REWRITE_CHECK_THRESHOLD = 0.5;

/**
 * Does the rewrite say what the original said? The original is the only
 * source and the rewrite the statement checked against it; anything but
 * `verified` (reversed, hedged differently, about something else) fails.
 */
export function keepsMeaning(original: string, rewritten: string): boolean {
  const source = { title: '', url: 'about:original', excerpt: original };
  const r = checkStatement(rewritten, [source], {
    validate_sources: false,
    confidence_threshold: REWRITE_CHECK_THRESHOLD,
  });
  return r.verification_status === 'verified';
}

/**
 * A rephrased sentence: one sentence (the first the model gave), the same
 * numbers, no new names, at least half the original's content words and at
 * most half new ones, not much shorter or longer, and saying the same as the
 * original (`keepsMeaning`: "usually beats" must not become "is a recipe for
 * disaster", "does not" must not be dropped).
 */
export function gateRewrite(original: string, raw: string): Verdict {
  const cleaned = cleanModelText(raw, true);
  const text = sentencesOf(cleaned)[0] ?? cleaned;
  const reason = common(text);
  if (reason) return { ok: false, reason };
  const before = numbersIn(original);
  const after = numbersIn(text);
  if (novel(after, new Set(before)).length || novel(before, new Set(after)).length)
    return { ok: false, reason: 'unsupported_number' };
  const known = new Set(words(original));
  if (namesIn(text).some((n) => !known.has(n.toLowerCase()))) return { ok: false, reason: 'unsupported_name' };
  const o = new Set(contentKeys(original));
  const c = new Set(contentKeys(text));
  const kept = [...o].filter((k) => c.has(k)).length;
  const added = [...c].filter((k) => !o.has(k)).length;
  const ratio = text.length / Math.max(1, original.length);
  if ((o.size >= 3 && kept / o.size < 0.5) || (c.size > 0 && added / c.size > 0.5) || ratio > 1.8 || ratio < 0.4)
    return { ok: false, reason: 'meaning_drift' };
  const sentence = /[.!?]["”’)]*$/.test(text) ? text : `${text}.`;
  if (!keepsMeaning(original, sentence)) return { ok: false, reason: 'meaning_changed' };
  return { ok: true, text: sentence };
}

export interface CopyGateOptions {
  form: CopyForm;
  maxChars?: number;
  /** Everything the copy may draw on: topic, audience, key points, facts, the template's draft. */
  material: string[];
  /** Words of which at least one must appear (topic and key points). */
  subject: string;
}

/**
 * Short copy: one line for hooks, headlines and subject lines; within
 * `maxChars` (cut at a sentence end, else refused); numbers and names only
 * from the material; about the subject.
 */
export function gateCopy(raw: string, o: CopyGateOptions): Verdict {
  let text = cleanModelText(raw, SINGLE_LINE.has(o.form));
  if (o.form === 'hook') text = sentencesOf(text)[0] ?? text;
  if (o.form === 'headline' || o.form === 'subject_line') text = text.replace(/[.]+$/, '').replace(/^#+\s*/, '');
  const reason = common(text);
  if (reason) return { ok: false, reason };
  if (o.maxChars !== undefined) {
    const cut = SINGLE_LINE.has(o.form) && o.form !== 'hook' ? undefined : trimAtSentence(text, o.maxChars);
    if ([...text].length > o.maxChars && !cut) return { ok: false, reason: 'too_long' };
    if (cut) text = cut;
  }
  const material = o.material.join(' ');
  if (novel(numbersIn(text), new Set(numbersIn(material))).length) return { ok: false, reason: 'unsupported_number' };
  const known = new Set(words(material));
  // Headlines capitalise every word; only the other forms can show an invented name this way.
  if (o.form !== 'headline' && namesIn(text).some((n) => !known.has(n.toLowerCase())))
    return { ok: false, reason: 'unsupported_name' };
  const subject = new Set(contentKeys(o.subject));
  if (subject.size && !contentKeys(text).some((k) => subject.has(k))) return { ok: false, reason: 'off_topic' };
  return { ok: true, text };
}

/** A free answer (a chat prompt without a plan): not empty, not about itself, English, not looping. */
export function gateText(raw: string): Verdict {
  const text = cleanModelText(raw, false);
  const reason = common(text);
  return reason ? { ok: false, reason } : { ok: true, text };
}

const RANK = { verified: 0, unverified: 1, contradicted: 2 } as const;

/** The worst verdict of the claim checker over a text's claims (0 when it makes none). */
function worstClaim(text: string, sources: ClaimSource[]): number {
  return Math.max(0, ...checkClaims(text, sources).claim_analysis.map((c) => RANK[c.verification_status]));
}

/**
 * The claim checker against the sources, sentence by sentence: a rewrite may
 * not make a claim the sources support less than the original's (a verified
 * fact turned unverifiable, or any contradiction).
 */
export function claimsHold(original: string, rewritten: string, sources: ClaimSource[]): boolean {
  if (sources.length === 0) return true;
  return worstClaim(rewritten, sources) <= worstClaim(original, sources);
}
