/**
 * Podcast scripts (pure): sizing by duration (WORDS_PER_MINUTE spoken words a
 * minute), speakers with distinct voices, a writer's draft (vendor or offline)
 * turned into numbered scenes of speaker lines, and the offline writer used
 * when no text vendor is configured (provider `local`: not a language model,
 * the template writer of domain/generation, with lines handed to the
 * speakers in turn).
 */
import { writeSection } from '../generation/section';
import { narrationSentences, plainNarration } from '../media/narration';
import { speakerVoice } from '../media/voices';
import { storableText } from '../storable-text';
import { PodcastScript, ScriptRequest, ScriptScene, Speaker, WORDS_PER_MINUTE } from './types';

export const countWords = (text: string) => (text.trim() ? text.trim().split(/\s+/).length : 0);
export const secondsForWords = (words: number) => Math.round((words / WORDS_PER_MINUTE) * 600) / 10;

/** Scenes of an episode: about one a minute, at least two (opening and discussion), at most 40. */
export const sceneCountFor = (minutes: number) => Math.min(40, Math.max(2, Math.round(minutes)));

/** Speakers with ids and voices: speaker n gets the n-th distinct offline voice unless one is given. */
export function normaliseSpeakers(list: ScriptRequest['speakers']): Speaker[] {
  const used = new Set<string>();
  return list.map((s, i) => {
    let id = (s.id ?? s.name)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 40);
    if (!id || used.has(id)) id = `speaker_${i + 1}`;
    used.add(id);
    return {
      id,
      name: s.name.trim(),
      ...(s.role ? { role: s.role.trim() } : {}),
      voice: { voice: speakerVoice(i), ...(s.voice ?? {}) },
    };
  });
}

/** Words of each scene: the episode's words split evenly, the remainder to the first scenes. */
export function sceneWordBudgets(totalWords: number, scenes: number): number[] {
  const base = Math.floor(totalWords / scenes);
  return Array.from({ length: scenes }, (_, i) => base + (i < totalWords - base * scenes ? 1 : 0));
}

export interface ScriptDraft {
  title?: string;
  scenes: Array<{ title?: string; lines: Array<{ speaker: string; text: string }> }>;
}

/** The input the writer (vendor prompt or offline task) works from. */
export interface ScriptInput {
  idea: string;
  duration_minutes: number;
  target_words: number;
  scene_count: number;
  speakers: Speaker[];
  research?: string;
  analysis?: string;
  bible?: string;
  tone?: string;
}

export function scriptInput(r: ScriptRequest): ScriptInput {
  const speakers = normaliseSpeakers(r.speakers);
  return {
    idea: r.idea.trim(),
    duration_minutes: r.duration_minutes,
    target_words: Math.round(r.duration_minutes * WORDS_PER_MINUTE),
    scene_count: sceneCountFor(r.duration_minutes),
    speakers,
    ...(r.research ? { research: r.research } : {}),
    ...(r.analysis ? { analysis: r.analysis } : {}),
    ...(r.bible ? { bible: r.bible } : {}),
    ...(r.tone ? { tone: r.tone } : {}),
  };
}

/** A draft as scenes: unknown speakers go to the first speaker, empty lines are dropped, text made speakable. */
export function scriptFromDraft(
  draft: ScriptDraft,
  input: ScriptInput,
  meta: { provider: string; model: string },
): PodcastScript {
  const ids = new Set(input.speakers.map((s) => s.id));
  const byName = new Map(input.speakers.map((s) => [s.name.toLowerCase(), s.id]));
  const budgets = sceneWordBudgets(input.target_words, Math.max(1, draft.scenes.length));
  const scenes: ScriptScene[] = [];
  for (const s of draft.scenes) {
    const lines = s.lines
      .map((l) => ({
        speaker: ids.has(l.speaker) ? l.speaker : (byName.get(String(l.speaker).toLowerCase()) ?? input.speakers[0].id),
        text: storableText(plainNarration(l.text ?? '')),
      }))
      .filter((l) => /[\p{L}\p{N}]/u.test(l.text));
    if (!lines.length) continue;
    const words = lines.reduce((n, l) => n + countWords(l.text), 0);
    const index = scenes.length;
    scenes.push({
      scene_id: `scene-${index + 1}`,
      index,
      title: storableText(s.title ?? '').trim() || `Part ${index + 1}`,
      lines,
      target_words: budgets[Math.min(index, budgets.length - 1)],
      word_count: words,
      estimated_seconds: secondsForWords(words),
    });
  }
  if (!scenes.length) throw new RangeError('the script has no scene with a spoken line');
  const words = scenes.reduce((n, s) => n + s.word_count, 0);
  return {
    title: storableText(draft.title ?? '').trim() || titleOf(input.idea),
    idea: input.idea,
    duration_minutes: input.duration_minutes,
    words_per_minute: WORDS_PER_MINUTE,
    target_words: input.target_words,
    word_count: words,
    estimated_seconds: secondsForWords(words),
    speakers: input.speakers,
    scenes,
    provider: meta.provider,
    model: meta.model,
    offline: meta.provider === 'local',
  };
}

const titleOf = (idea: string) => {
  const t = idea.replace(/\s+/g, ' ').trim().slice(0, 120);
  return t.charAt(0).toUpperCase() + t.slice(1);
};

/** Sentences of `text` that fit in `max` words (at least one, cut when it alone is longer). */
function takeWords(sentences: string[], max: number): string[] {
  const out: string[] = [];
  let n = 0;
  for (const s of sentences) {
    const w = countWords(s);
    if (n + w > max && out.length) break;
    out.push(
      w > max
        ? `${s
            .split(/\s+/)
            .slice(0, max)
            .join(' ')
            .replace(/[,;:]$/, '')}.`
        : s,
    );
    n += Math.min(w, max);
    if (n >= max) break;
  }
  return out;
}

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

/** The outline segment of scene `i` of `n` (outlines of another length are spread over the scenes). */
const segmentFor = <T>(list: T[], i: number, n: number): T | undefined =>
  list.length ? list[Math.min(list.length - 1, Math.floor((i * list.length) / n))] : undefined;

/**
 * The offline writer: scene titles from the analysis' outline (else the show
 * bible's recurring segments for the middle scenes, else the idea's aspects);
 * research findings as talking points naming their source ("According to
 * <title or site>, …"), spread over the scenes between the lines; each scene's remaining words written by the
 * template writer to its budget (the analysis' audience and the bible's tone
 * as its audience and tone) and handed
 * to the speakers in turn, one or two sentences a line; the host opens (with
 * the show's name from the bible) and closes (with its sign-off) the episode.
 */
export function localScript(input: ScriptInput): ScriptDraft {
  const budgets = sceneWordBudgets(input.target_words, input.scene_count);
  const n = budgets.length;
  const topic = input.idea.replace(/[.!?]+$/, '');
  const ctx = scriptContext(input);
  const tone = input.tone ?? ctx.tone ?? 'conversational';
  const [host, ...others] = input.speakers;
  const guest = others[0] ?? host;
  const titles = budgets.map((_, i) => {
    const planned = segmentFor(ctx.outline, i, n)?.title;
    if (planned) return planned;
    if (i === 0) return `Introducing ${topic}`;
    if (i === n - 1) return `Takeaways on ${topic}`;
    return ctx.segments.length ? ctx.segments[(i - 1) % ctx.segments.length] : ASPECTS[(i - 1) % ASPECTS.length](topic);
  });
  // Findings go to the middle scenes first (all scenes when there are only two), in turn.
  const middle = n > 2 ? budgets.map((_, i) => i).slice(1, -1) : budgets.map((_, i) => i);
  const points = budgets.map(() => [] as Finding[]);
  ctx.findings.forEach((f, k) => points[middle[k % middle.length]].push(f));
  const scenes = budgets.map((words, i) => {
    const opening =
      i === 0
        ? [
            `Welcome to ${ctx.show ?? 'the show'}. I'm ${host.name}${guest !== host ? `, and with me is ${guest.name}` : ''}. Today: ${topic}.`,
          ]
        : [];
    const closing = i === n - 1 ? [ctx.signOff ?? 'Thanks for listening, and see you next time.'] : [];
    // Each talking point fits the scene: at most half its words go to findings.
    const talk: string[] = [];
    let used = 0;
    for (const f of points[i]) {
      const line = `According to ${f.source}, ${f.text.charAt(0).toLowerCase()}${f.text.slice(1)}`;
      const w = countWords(line);
      if (used + w > words / 2) break;
      talk.push(line);
      used += w;
    }
    const fixed = [...opening, ...closing, ...talk].reduce((k, s) => k + countWords(s), 0);
    const body = writeSection({
      heading: titles[i],
      keyPoints: [titles[i]],
      targetWords: Math.max(8, words - fixed),
      tone,
      topic,
      ...(ctx.audience ? { audience: ctx.audience } : {}),
    });
    const sentences = takeWords(narrationSentences(body.markdown), Math.max(8, words - fixed));
    const lines: ScriptDraft['scenes'][number]['lines'] = opening.map((text) => ({ speaker: host.id, text }));
    // Speakers alternate every two sentences (a speaker who opened the scene answers next); after each of the
    // first lines, the next speaker in turn brings in a finding, naming its source.
    let turn = opening.length ? 1 : 0;
    const say = (text: string) => {
      lines.push({ speaker: input.speakers[turn % input.speakers.length].id, text });
      turn++;
    };
    for (let k = 0, f = 0; k < sentences.length || f < talk.length; k += 2) {
      if (k < sentences.length) say(sentences.slice(k, k + 2).join(' '));
      if (f < talk.length) say(talk[f++]);
    }
    for (const text of closing) lines.push({ speaker: host.id, text });
    return { title: titles[i], lines };
  });
  return { title: titleOf(topic), scenes };
}

const ASPECTS = [
  (t: string) => `Why ${t} matters`,
  (t: string) => `How ${t} works`,
  (t: string) => `Common mistakes with ${t}`,
  (t: string) => `An example of ${t}`,
  (t: string) => `Getting started with ${t}`,
  (t: string) => `Measuring ${t}`,
];
