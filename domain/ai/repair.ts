/**
 * Making a model's answer usable without asking again, where that can be done honestly (pure):
 *
 * - **JSON cut short or wrapped** (`jsonCandidates`): a fence around it, prose before it, a trailing comma, a line
 *   break written raw inside a string, or an answer that stopped at the output limit mid-structure. The candidates are the values the answer can mean, best
 *   first: the text as written, then the text cut back to its last complete member with the open structures
 *   closed, then the text with a string cut mid-way closed where it stopped. The caller keeps the first candidate
 *   its schema accepts, so nothing half-written survives where a complete shorter answer exists.
 * - **Markdown cut at the output limit** (`joinContinuation`, `endAtSentence`): a continuation joined without the
 *   words it repeated, and a text that still stops mid-sentence ends at its last complete sentence instead.
 */

type Opener = '{' | '[';

interface Cut {
  /** The text up to here is a sequence of complete members of the open structures. */
  end: number;
  /** The structures open at `end`, outermost first. */
  open: Opener[];
}

const closerOf = (o: Opener): string => (o === '{' ? '}' : ']');
const close = (text: string, open: Opener[]): string => text + [...open].reverse().map(closerOf).join('');

/** The body an answer's JSON is in: inside a ```json fence when there is one (closed or not), from its first `{`. */
function jsonBody(text: string): string | undefined {
  const fence = /```(?:json|JSON)?[ \t]*\r?\n?([\s\S]*?)(?:```|$)/.exec(text);
  const body = fence ? fence[1] : text;
  const start = body.indexOf('{');
  return start < 0 ? undefined : body.slice(start);
}

/** A control character written raw inside a JSON string (a line break, a tab), as JSON writes it. */
const escapedControl = (ch: string): string =>
  ch === '\n'
    ? '\\n'
    : ch === '\r'
      ? '\\r'
      : ch === '\t'
        ? '\\t'
        : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Trailing commas before a closer (outside strings) removed; raw control characters in strings escaped. */
function withoutTrailingCommas(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch < ' ') {
        out += escapedControl(ch);
        continue;
      }
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    if (ch === ',' && /^\s*[}\]]/.test(text.slice(i + 1))) continue;
    out += ch;
  }
  return out;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * Scans one JSON object from the start of `body`: where it ends (when complete), the places it can be cut back
 * to, and whether it stopped inside a string (and with which structures open).
 */
function scan(body: string): { end?: number; cuts: Cut[]; inString: boolean; open: Opener[] } {
  const open: Opener[] = [];
  const cuts: Cut[] = [];
  let inString = false;
  /** In an object: whether the string just read is a key (its value not yet written). */
  let expectingKey = false;
  let afterKey = false;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      if (open[open.length - 1] === '{' && expectingKey) {
        expectingKey = false;
        afterKey = true;
      }
    } else if (ch === ':') afterKey = false;
    else if (ch === '{' || ch === '[') {
      open.push(ch);
      expectingKey = ch === '{';
    } else if (ch === '}' || ch === ']') {
      open.pop();
      if (!open.length) return { end: i + 1, cuts, inString: false, open: [] };
      cuts.push({ end: i + 1, open: [...open] });
      expectingKey = false;
    } else if (ch === ',') {
      // Everything before a comma is complete members: cutting there drops only what follows.
      if (!afterKey) cuts.push({ end: i, open: [...open] });
      expectingKey = open[open.length - 1] === '{';
    }
  }
  return { cuts, inString, open };
}

/**
 * The values a model's JSON answer can mean, best first (see the file comment). Empty when no object can be read
 * from it at all.
 */
export function jsonCandidates(text: string): unknown[] {
  const body = jsonBody(text);
  if (body === undefined) return [];
  const out: unknown[] = [];
  const seen = new Set<string>();
  const add = (candidate: string) => {
    const parsed = tryParse(withoutTrailingCommas(candidate));
    if (!parsed.ok || !parsed.value || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) return;
    const key = JSON.stringify(parsed.value);
    if (!seen.has(key)) out.push(parsed.value);
    seen.add(key);
  };
  const scanned = scan(body);
  if (scanned.end !== undefined) {
    add(body.slice(0, scanned.end));
    return out;
  }
  // Cut short: back to complete members, latest first (a few, so a long answer is not tried a thousand times).
  for (const cut of scanned.cuts.slice(-12).reverse()) add(close(body.slice(0, cut.end), cut.open));
  // Last: the string it stopped in, closed where it stopped (a value cut mid-way; the schema may still refuse it).
  if (scanned.inString) add(close(`${body}"`, scanned.open));
  return out;
}

/** Where the text's last complete sentence (or list item, or heading line) ends; 0 when it has none. */
function lastSentenceEnd(text: string): number {
  let end = 0;
  const re = /[.!?…]["'”’)\]]*(?=\s|$)|\n/g;
  for (let m = re.exec(text); m; m = re.exec(text)) end = m.index + m[0].length;
  return end;
}

/**
 * A text that stopped at the output limit, ended at its last complete sentence. A text that already ends a
 * sentence (or a line) is returned trimmed; one with no complete sentence at all is returned as it is (there is
 * nothing shorter that is whole).
 */
export function endAtSentence(text: string): string {
  const trimmed = text.trimEnd();
  if (/[.!?…]["'”’)\]]*$/.test(trimmed)) return trimmed;
  const end = lastSentenceEnd(trimmed);
  return end > 0 ? trimmed.slice(0, end).trimEnd() : trimmed;
}

/**
 * A continuation appended to the text written so far. Models often restart the sentence they were cut in, or
 * repeat the last few words: the longest tail of `before` (at most 300 characters; 12+ characters, or two or more
 * whole words) that `after` starts with is not written twice.
 */
export function joinContinuation(before: string, after: string): string {
  const next = after.replace(/^\s+/, '');
  const tail = before.slice(-300);
  for (let n = Math.min(tail.length, next.length); n >= 4; n--) {
    const repeated = tail.slice(tail.length - n);
    if (!next.startsWith(repeated)) continue;
    // 12+ characters are a repeat wherever they start; a shorter one only when it is two or more whole words
    // ("[2] What" after "[2] What"), never one word or part of one ("that that" can be meant; "ing" can be the rest).
    const wholeWords = /^\s?$/.test(tail.charAt(tail.length - n - 1)) && /^\S+\s+\S/.test(repeated);
    const endsWord = n === next.length || /\s|[.,;:!?)]/.test(next.charAt(n));
    if (n >= 12 || (wholeWords && endsWord)) return before + next.slice(n);
  }
  // A continuation goes on exactly where the text stopped: mid-word it starts without a space, and the space or
  // line break it starts with is its own.
  return /\s$/.test(before) ? before + next : before + after;
}

const flat = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** A labelled line of a brief: "Key points: …", "Audience: …" (a label of a few words, a value of 10+ characters). */
const BRIEF_FIELD = /^[A-Z][A-Za-z ]{1,24}:\s*\S.{9,}$/;

/**
 * The first line of the prompt an answer repeats word for word instead of following it: an instruction line of a
 * system message (40+ characters), or a labelled field of the brief ("Key points: …", "Section: …") written back
 * with its label — a small model sometimes returns its prompt instead of the text it asks for. The brief's words
 * without the label (a key point stated in the text) are what it should write. Undefined when the answer repeats
 * none.
 */
export function echoedInstruction(
  answer: string,
  prompt: ReadonlyArray<{ role: string; content: string }>,
): string | undefined {
  const text = flat(answer);
  for (const m of prompt.filter((x) => x.role === 'system'))
    for (const line of m.content.split(/\n+|(?<=[.!?])\s+/)) {
      const l = flat(line);
      if (l.length >= 40 && text.includes(l)) return line.trim();
    }
  for (const m of prompt.filter((x) => x.role === 'user'))
    for (const line of m.content.split('\n')) {
      const l = flat(line);
      if (BRIEF_FIELD.test(line.trim()) && text.includes(l)) return line.trim();
    }
  return undefined;
}

/** An opening line addressed to the requester, ending in a colon: "Sure! Here's the post:", "Certainly:". */
const CHATTER_OPENING =
  /^(?:sure|certainly|of course|absolutely|okay|ok|great|here(?:'s|’s| is| are))\b[^\n]{0,160}:\s*$/i;
/** A closing line addressed to the requester: "I hope this helps!", "Let me know if you want changes." */
const CHATTER_CLOSING =
  /^(?:i hope (?:this|these|that|it|you)\b|hope (?:this|it) helps|let me know\b|feel free to (?:ask|let|reach)|if you(?:'d| would)? (?:like|want|need) (?:any|more|me)\b)[^\n]*$/i;

/**
 * A Markdown answer without the chat around it: an opening line to the requester ("Here's your post:") and
 * closing lines ("I hope this helps!") are not part of the text asked for. The paragraphs between are kept as
 * written.
 */
export function stripChatter(text: string): string {
  const paragraphs = text.trim().split(/\n\s*\n/);
  if (paragraphs.length > 1 && CHATTER_OPENING.test(paragraphs[0].trim())) paragraphs.shift();
  while (paragraphs.length > 1 && CHATTER_CLOSING.test(paragraphs[paragraphs.length - 1].trim())) paragraphs.pop();
  return paragraphs.join('\n\n').trim();
}

/** A sentence about editing a text rather than the text itself. */
const EDITING_TALK =
  /\b(?:here(?:'s|’s| is) (?:a |an |the |your )?(?:rewritten|revised|edited|updated|improved|polished) (?:version|text|draft|introduction|post)|rewritten version|i(?: have|'ve|’ve)? (?:made|added|rephrased|rewrote|rewritten|revised|edited|adjusted|tweaked) (?:some|a few|several|minor|small|the following)\b|i hope (?:these|my) (?:edits|changes|revisions|adjustments)|as an ai\b|as a (?:large )?language model)/i;

/**
 * The first sentence of an answer that talks about editing a text instead of being one ("Here's a rewritten
 * version of your introduction with some minor edits:", "I made some minor adjustments ..."): a small model
 * sometimes answers a writing brief as if it had been asked to review a draft. Undefined unless such talk opens
 * the answer or recurs (two sentences or more); a post that mentions editing once is about its subject.
 */
export function editingTalk(answer: string): string | undefined {
  const sentences = answer.split(/(?<=[.!?:])\s+|\n+/).filter((s) => s.trim());
  const talk = sentences.filter((s) => EDITING_TALK.test(s));
  if (!talk.length) return undefined;
  return EDITING_TALK.test(sentences[0]) || talk.length >= 2 ? talk[0].trim() : undefined;
}
