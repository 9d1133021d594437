/**
 * Topicality for the coherence measure (coherence.ts describes it): each
 * unit read for its content-word stems, uncommon words and names; the
 * subject read from what the caller gives or the text's own title; body
 * sentences attributed to the subject or to a competing thread, in rounds.
 */
import { isEasyWord } from './easy-words';
import { STOPWORDS } from './stopwords';
import { CoherenceUnit } from './coherence-units';
import { Token } from './words';
import { contentKeys, wordKey } from './word-forms';

export interface Read {
  unit: CoherenceUnit;
  tokens: Token[];
  /** Content-word stems (stop words dropped, hyphenated words split). */
  keys: Set<string>;
  /** Keys of words outside the familiar-word list, names excepted. */
  specific: Set<string>;
  /** Keys that carry evidence: uncommon words and names ("people", "week" or "page" recur in any text). */
  telling: Set<string>;
}

export function readUnit(unit: CoherenceUnit, tokens: Token[], names: ReadonlySet<string>): Read {
  const keys = new Set<string>();
  const specific = new Set<string>();
  const telling = new Set<string>();
  for (const t of tokens) {
    if (t.kind !== 'word') continue;
    for (const w of t.text.split(/-(?=\p{L})/u)) {
      if (w.length < 2 || STOPWORDS.has(w.toLowerCase())) continue;
      const k = wordKey(w);
      keys.add(k);
      if (names.has(k)) telling.add(k);
      else if (!isEasyWord(w)) {
        specific.add(k);
        telling.add(k);
      }
    }
  }
  return { unit, tokens, keys, specific, telling };
}

/**
 * Names: words written with a capital inside a sentence somewhere in the text
 * ("Maria", "Riverside"), or capitalised first words the text never writes in
 * lower case and that are not common words ("Tom"); acronyms excluded. Who
 * and where a subject happens recur without being another subject, so names
 * never form a competing thread.
 */
export function namesOf(units: CoherenceUnit[], tokens: Token[][]): Set<string> {
  const names = new Set<string>();
  const lower = new Set<string>();
  const starts: string[] = [];
  units.forEach((u, j) => {
    if (u.heading) return;
    tokens[j].forEach((t, i) => {
      if (t.kind !== 'word') return;
      if (/^\p{Ll}/u.test(t.text)) lower.add(wordKey(t.text));
      else if (/^\p{Lu}\p{Ll}/u.test(t.text)) {
        if (i > 0) names.add(wordKey(t.text));
        else starts.push(t.text);
      }
    });
  });
  // A capitalised first word is a name when the text never writes it in lower case and it is no common word ("Tom").
  for (const w of starts)
    if (!lower.has(wordKey(w)) && !isEasyWord(w) && !STOPWORDS.has(w.toLowerCase())) names.add(wordKey(w));
  return names;
}

/** Keys that occur in at least `min` of the given key sets. */
function recurring(sets: Array<Set<string>>, min = 2): Map<string, number> {
  const n = new Map<string, number>();
  for (const s of sets) for (const k of s) n.set(k, (n.get(k) ?? 0) + 1);
  for (const [k, c] of n) if (c < min) n.delete(k);
  return n;
}

const overlap = (a: Set<string>, b: ReadonlySet<string> | ReadonlyMap<string, number>): number => {
  let n = 0;
  for (const k of a) if (b.has(k)) n++;
  return n;
};

/**
 * The text's own statement of its subject: the title (H1; without one, the
 * first body sentence, read with the next one when it is short: "Big news!")
 * and the uncommon words of the other headings ("Plan episodes and guests"
 * adds "episode", "guest"; "Getting people through the door" adds nothing).
 */
function ownSubject(reads: Read[]): string {
  const headings = reads.filter((r) => r.unit.heading);
  const h1 = headings.find((r) => r.unit.level === 1);
  const body = reads.filter((r) => !r.unit.heading);
  let title = h1?.unit.text ?? '';
  if (!h1 && body.length > 0) {
    title = body[0].unit.text;
    if (body.length > 1 && body[0].keys.size < 3 && body[1].unit.block === body[0].unit.block)
      title += ` ${body[1].unit.text}`;
  }
  const uncommon = headings
    .filter((r) => r !== h1)
    .flatMap((r) => r.tokens.filter((t) => t.kind === 'word' && !isEasyWord(t.text)))
    .map((t) => t.text);
  return [title, ...uncommon].filter(Boolean).join(' · ');
}

type Side = 'on' | 'off' | undefined;
/** Rounds of growing the subject's vocabulary (it stops earlier when nothing changes). */
const MAX_ROUNDS = 4;
/** A competing thread: an uncommon term in at least this many sentences not about the subject. */
const OTHER_MIN_SENTENCES = 3;
/** ...unless at least this share of its sentences also use the subject's own uncommon words ("dough" with "flour"). */
const BRIDGE_SHARE = 0.25;

/** Does a text term name a subject term? The same stem, or the head of a compound ("shop" of "bookshop"). */
function namesSubject(key: string, subject: readonly string[]): boolean {
  if (subject.includes(key)) return true;
  if (key.length < 4) return false;
  return subject.some((s) => s.length - key.length >= 3 && s.endsWith(key));
}

export function topicality(reads: Read[], given: string[]) {
  const phrases = given.map((g) => g.trim()).filter((g) => contentKeys(g).length > 0);
  const own = ownSubject(reads);
  const givenKeys = [...new Set(phrases.flatMap((p) => contentKeys(p)))];
  const allKeys = new Set(reads.flatMap((r) => [...r.keys]));
  const mentioned = [...allKeys].some((k) => namesSubject(k, givenKeys));
  // A given subject is read together with the text's own title, unless the text never mentions the given subject.
  const subjectSource: 'given' | 'text' = phrases.length > 0 ? 'given' : 'text';
  const subject =
    subjectSource === 'text' ? own : mentioned ? [...phrases, own].filter(Boolean).join(' · ') : phrases.join(' · ');
  const subjectKeys = [...new Set(contentKeys(subject))];
  const S = new Set([...allKeys].filter((k) => namesSubject(k, subjectKeys)).concat(subjectKeys));
  const body = reads.filter((r) => !r.unit.heading);
  // 1. Sentences that name the subject.
  const core = body.map((r) => overlap(r.keys, S) > 0);
  const side: Side[] = core.map((c) => (c ? 'on' : undefined));
  const coreTerms = new Set(body.filter((_, i) => core[i]).flatMap((r) => [...r.keys]));
  const coreTelling = new Set([...S, ...body.filter((_, i) => core[i]).flatMap((r) => [...r.telling])]);
  let other = new Map<string, number>();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    // 2. The subject's vocabulary in this text: telling terms recurring across the sentences attributed to it ...
    const T = recurring(body.filter((_, i) => side[i] === 'on').map((r) => r.telling));
    for (const k of S) T.delete(k);
    // ... against competing threads: uncommon terms recurring across the other sentences that never share a
    // sentence naming the subject and seldom (under a quarter of their sentences) meet the subject's own words.
    other = recurring(
      body.filter((_, i) => side[i] !== 'on').map((r) => r.specific),
      OTHER_MIN_SENTENCES,
    );
    for (const k of [...other.keys()]) if (S.has(k) || T.has(k) || coreTerms.has(k)) other.delete(k);
    const meets = new Map<string, number>();
    for (const r of body) {
      let touches = false;
      for (const k of r.keys) if (coreTelling.has(k) && !other.has(k)) touches = true;
      if (touches) for (const k of r.keys) if (other.has(k)) meets.set(k, (meets.get(k) ?? 0) + 1);
    }
    for (const [k, n] of meets) if (n / other.get(k)! >= BRIDGE_SHARE) other.delete(k);
    let changed = false;
    body.forEach((r, i) => {
      if (core[i]) return;
      const t = overlap(r.keys, T);
      const o = overlap(r.keys, other);
      const next: Side = t > o ? 'on' : o > t ? 'off' : undefined;
      if (next !== side[i]) changed = true;
      side[i] = next;
    });
    if (!changed) break;
  }
  // 3. A sentence with no evidence either way ("She started with one reading in a back room.") continues the
  // sentence before it in the same paragraph; at the start of a paragraph it is not judged. A text that never
  // mentions the subject it was given is about something else, whatever it says.
  const resolved: Side[] = side.map((s, i) =>
    subjectSource === 'given' && !mentioned
      ? 'off'
      : (s ?? (i > 0 && body[i - 1].unit.block === body[i].unit.block ? side[i - 1] : undefined)),
  );
  const on = resolved.filter((s) => s === 'on').length;
  const offIdx = resolved.flatMap((s, i) => (s === 'off' ? [i] : []));
  const judged = on + offIdx.length;
  // A readable word for each competing stem: its first occurrence in the off-topic sentences (else anywhere).
  const surface = new Map<string, string>();
  for (const r of [...offIdx.map((i) => body[i]), ...body])
    for (const t of r.tokens)
      if (t.kind === 'word' && other.has(wordKey(t.text)) && !surface.has(wordKey(t.text)))
        surface.set(wordKey(t.text), t.text.toLowerCase());
  const otherTerms = [...other.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k]) => surface.get(k) ?? k);
  return {
    subjectSource,
    subject,
    sentences: body.length,
    judged,
    on,
    topicality: judged === 0 ? 1 : on / judged,
    off: offIdx.map((i) => ({ start: body[i].unit.start, end: body[i].unit.end, text: body[i].unit.text })),
    otherTerms,
    subjectKeys: S,
  };
}
