/**
 * What the offline script writer (local-script.ts) reads from a script
 * request's research, analysis and show bible (docs/podcast.md): each field is
 * text, JSON or plain (lists, `key: value` lines), all optional; research
 * becomes findings naming their sources, the analysis an outline (and audience,
 * tone), the bible the show's name, sign-off and recurring segments. Pure.
 */
import { narrationSentences } from '../media/narration';
import type { ScriptInput } from './script';

/** A research finding the offline writer turns into a talking point, with the source it names. */
export interface Finding {
  text: string;
  source: string;
  url?: string;
}

/** What the offline writer reads from the request's research, analysis and show bible (all optional text). */
export interface ScriptContext {
  findings: Finding[];
  /** Segment titles of the analysis' outline, in order: scene topics. */
  outline: Array<{ title: string }>;
  audience?: string;
  tone?: string;
  /** Show bible: the show's name, its sign-off, recurring segment names. */
  show?: string;
  signOff?: string;
  segments: string[];
}

const clean = (v: unknown) =>
  typeof v === 'string'
    ? v
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/^["'“”]+|["'“”]+$/g, '')
    : '';
const parseJson = (text: string): unknown => {
  const t = text.trim();
  if (!/^[[{]/.test(t)) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
};
const hostOf = (url: string) => {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return undefined;
  }
};
/** The first sentence of `text` in at most `max` words (cut at a word, ended with a full stop). */
const firstSentence = (text: string, max = 30) => {
  const s = narrationSentences(text)[0] ?? '';
  const words = s.split(/\s+/).filter(Boolean);
  if (!words.length) return '';
  const cut =
    words.length > max
      ? `${words
          .slice(0, max)
          .join(' ')
          .replace(/[,;:.]+$/, '')}.`
      : s;
  return /[.!?]$/.test(cut) ? cut : `${cut}.`;
};
/** `- item`, `* item`, `1. item` lines of a text. */
const listItems = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.match(/^\s*(?:[-*•]|\d+[.)])\s+(.+)$/)?.[1])
    .filter((l): l is string => !!l)
    .map(clean)
    .filter(Boolean);
/** `key: value` lines of a text (keys lower-cased). */
const keyValues = (text: string) => {
  const out = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const m = line.match(/^\s*[-*]?\s*([A-Za-z][A-Za-z \-]{1,30}):\s*(.+)$/);
    if (m) out.set(m[1].toLowerCase().trim(), clean(m[2]));
  }
  return out;
};

type SourceLike = { title?: unknown; url?: unknown; excerpt?: unknown; snippet?: unknown; content?: unknown };

function findingsOf(research: string | undefined): Finding[] {
  if (!research?.trim()) return [];
  const json = parseJson(research) as Record<string, unknown> | unknown[] | undefined;
  let sources: SourceLike[] = [];
  if (Array.isArray(json)) sources = json as SourceLike[];
  else if (json && Array.isArray((json as { results?: unknown }).results))
    sources = ((json as { results: Array<{ sources?: SourceLike[] }> }).results ?? []).flatMap((r) => r.sources ?? []);
  else if (json && Array.isArray((json as { sources?: unknown }).sources))
    sources = (json as { sources: SourceLike[] }).sources;
  if (json)
    return sources
      .filter((x) => x && typeof x === 'object')
      .map((x) => {
        const url = clean(x.url) || undefined;
        const text = firstSentence(clean(x.excerpt) || clean(x.snippet) || clean(x.content));
        return { text, source: clean(x.title) || (url && hostOf(url)) || 'the research notes', url };
      })
      .filter((f) => f.text);
  // Plain text: each line (or list item) a finding; a URL on the line names its source, or a `Source:` prefix.
  const out: Finding[] = [];
  for (const raw of research.split(/\r?\n/)) {
    let line = raw.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').trim();
    if (!line) continue;
    const url = line.match(/https?:\/\/[^\s)\]]+/)?.[0];
    if (url) line = line.replace(url, '').replace(/[([]\s*[)\]]/g, '');
    let source = url ? hostOf(url) : undefined;
    const named = line.match(/^([^:]{2,80}):\s+(.+)$/);
    if (named && !/\s(is|are|was|were)\s/.test(named[1])) {
      source = clean(named[1]);
      line = named[2];
    }
    const text = firstSentence(line.replace(/\s*[-–—(]\s*$/, ''));
    if (text) out.push({ text, source: source ?? 'the research notes', ...(url ? { url } : {}) });
  }
  return out;
}

function outlineOf(analysis: string | undefined): Pick<ScriptContext, 'outline' | 'audience' | 'tone'> {
  if (!analysis?.trim()) return { outline: [] };
  const json = parseJson(analysis) as
    { segment_outline?: Array<{ title?: unknown }>; audience?: unknown; tone?: unknown } | undefined;
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    const outline = (Array.isArray(json.segment_outline) ? json.segment_outline : [])
      .map((x) => ({ title: clean(x?.title) }))
      .filter((x) => x.title);
    return {
      outline,
      ...(clean(json.audience) ? { audience: clean(json.audience) } : {}),
      ...(clean(json.tone) ? { tone: clean(json.tone) } : {}),
    };
  }
  const kv = keyValues(analysis);
  return {
    outline: listItems(analysis).map((title) => ({ title: title.replace(/[.:]+$/, '') })),
    ...(kv.get('audience') ? { audience: kv.get('audience') } : {}),
    ...(kv.get('tone') ? { tone: kv.get('tone') } : {}),
  };
}

function bibleOf(bible: string | undefined): Pick<ScriptContext, 'show' | 'signOff' | 'tone' | 'segments'> {
  if (!bible?.trim()) return { segments: [] };
  const json = parseJson(bible);
  const kv =
    json && typeof json === 'object' && !Array.isArray(json)
      ? new Map(
          Object.entries(json as Record<string, unknown>).map(([k, v]) => [
            k.toLowerCase().replace(/_/g, ' '),
            Array.isArray(v) ? v.map(clean).join('; ') : clean(v),
          ]),
        )
      : keyValues(bible);
  const first = (...keys: string[]) => keys.map((k) => kv.get(k)).find((v) => v);
  const segments = (first('segments', 'recurring segments') ?? '').split(/[;,]/).map(clean).filter(Boolean);
  return {
    show: first('show', 'show name', 'name', 'title', 'podcast'),
    signOff: first('sign-off', 'sign off', 'signoff', 'closing', 'outro', 'catchphrase'),
    tone: first('tone', 'voice', 'style'),
    segments,
  };
}

/** What the offline writer can use of the request's research, analysis and show bible (docs/podcast.md). */
export function scriptContext(input: Pick<ScriptInput, 'research' | 'analysis' | 'bible'>): ScriptContext {
  const a = outlineOf(input.analysis);
  const b = bibleOf(input.bible);
  return {
    findings: findingsOf(input.research),
    outline: a.outline,
    ...(a.audience ? { audience: a.audience } : {}),
    tone: b.tone ?? a.tone,
    ...(b.show ? { show: b.show } : {}),
    ...(b.signOff ? { signOff: b.signOff } : {}),
    segments: b.segments,
  };
}
