/**
 * Podcast scripts (pure): sizing by duration (WORDS_PER_MINUTE spoken words a
 * minute), speakers with distinct voices, a writer's draft (vendor or offline)
 * turned into numbered scenes of speaker lines, and the offline writer used
 * when no text vendor is configured (provider `local`: not a language model;
 * it says the brief's own outline and research, in turn between the speakers,
 * and adds nothing to reach the duration: see `localScript`).
 */
import { asSentence, Coverage, coverageOf, readBrief } from '../generation/compose';
import { pointKind } from '../generation/phrases';
import { GENERIC } from '../generation/terms';
import { properNouns, safeLower } from '../generation/text';
import { contentKeys, wordKey } from '../analysis/word-forms';
import { narrationSentences, plainNarration } from '../media/narration';
import { genderOfName } from '../media/names';
import { speakerVoices } from '../media/voices';
import { storableText } from '../storable-text';
import { PodcastScript, ScriptLine, ScriptRequest, ScriptScene, Speaker, WORDS_PER_MINUTE } from './types';

export const countWords = (text: string) => (text.trim() ? text.trim().split(/\s+/).length : 0);
export const secondsForWords = (words: number) => Math.round((words / WORDS_PER_MINUTE) * 600) / 10;

/** Scenes of an episode: about one a minute, at least two (opening and discussion), at most 40. */
export const sceneCountFor = (minutes: number) => Math.min(40, Math.max(2, Math.round(minutes)));

/** Speakers with ids and voices: speaker n gets the n-th distinct offline voice unless one is given. */
export function normaliseSpeakers(list: ScriptRequest['speakers']): Speaker[] {
  const used = new Set<string>();
  const voices = speakerVoices(
    list.map((s) => ({ name: s.name, gender: s.gender, voice: s.voice?.voice })),
    genderOfName,
  );
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
      ...(voices[i].gender ? { gender: voices[i].gender } : {}),
      voice_basis: voices[i].basis,
      voice: { ...(s.voice ?? {}), voice: voices[i].voice },
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
  /** The offline writer only: how it met the brief (compose.ts); reported as the script's `coverage`. */
  coverage?: Coverage;
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

/** A title from an idea: its first sentence, at most 120 characters cut at a word, capitalised. */
export const titleOf = (idea: string): string => {
  const flat = idea.replace(/\s+/g, ' ').trim();
  let t = (/^.*?[.!?](?=\s|$)/.exec(flat)?.[0] ?? flat).replace(/[.!?]+$/, '');
  if (t.length > 120) t = t.slice(0, 121).replace(/\s+\S*$/, '') || t.slice(0, 120);
  return t.charAt(0).toUpperCase() + t.slice(1);
};

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

/**
 * How a segment title is said. `sentence`: a statement, an imperative or a noun phrase, said as written ("Seats are
 * free but limited."). `label`: a heading that opens with a gerund ("Building a daytime sleep routine"), announced
 * ("Next: Building a daytime sleep routine."). `heading`: a question-word or stock heading ("Why night workers sleep
 * badly", "Introducing …", "Takeaways on …"), which says nothing by itself: announced only when a finding follows.
 */
function titleKind(title: string): 'sentence' | 'label' | 'heading' {
  if (
    /^(why|how|what|when|where|which|who|introducing|takeaways?|key takeaways|getting started|an example of|common mistakes|measuring|next steps)\b/i.test(
      title,
    )
  )
    return 'heading';
  if (/^\p{L}+ing\b/u.test(title) && pointKind(title) !== 'imperative' && !/^(bring|sing|string|spring)\b/i.test(title))
    return 'label';
  return 'sentence';
}

/** The word-form keys of a text that tie it to a subject (general words such as "people" or "time" left out). */
const specificKeys = (text: string): Set<string> => new Set(contentKeys(text).filter((k) => !GENERIC_KEYS.has(k)));
const GENERIC_KEYS: ReadonlySet<string> = new Set([...GENERIC].map((w) => wordKey(w)));

/** Labels that introduce a segment whose title is a heading: first, middle, last. */
const LABELS = { first: 'First up', next: ['Next', 'Moving on', 'Now'], last: 'And finally' };

/**
 * The offline writer, from relevance, not to a length (domain/generation/compose.ts): every content line is the
 * brief's own material, and nothing is added to reach the duration, so an episode with little in its brief is
 * shorter than its budget (`word_count` against `target_words` shows it).
 *
 * - The host opens (with the show's name from the bible, naming the guest, the topic and the audience); a guest
 *   thanks the host.
 * - One scene per segment of the analysis' outline (several a scene beyond the episode's scene count, about one a
 *   minute), titled by it: a title that is a sentence ("Seats are free
 *   but limited") is said as written; a heading is introduced as the next segment ("Next: Building a daytime
 *   sleep routine."), a stock heading ("Why night workers sleep badly") only when a finding follows it
 *   (`titleKind`). The speakers take the segments in turn.
 * - Research findings about the episode (one specific word shared with the idea or the outline at least) are
 *   said after the segment they share most words with, naming their source ("According to <title or site>, …"),
 *   while the episode stays within its word budget. With no outline they get scenes of their own, titled by the
 *   bible's recurring segments.
 * - The host closes with the bible's sign-off, or a plain one.
 * Names and the user's words keep their capitals; choices are deterministic.
 */
export function localScript(input: ScriptInput): ScriptDraft {
  const topic = input.idea
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!?]+$/, '');
  const ctx = scriptContext(input);
  const [host, ...others] = input.speakers;
  const guest = others[0];
  const segments = ctx.outline.map((o) => o.title.replace(/[.!?;:]+$/, '')).filter(Boolean);
  const briefKeys = specificKeys([topic, ...segments].join(' '));
  const proper = properNouns([topic, ...segments, ...ctx.findings.map((f) => f.text)]);
  const findings = ctx.findings.filter((f) => [...specificKeys(f.text)].some((k) => briefKeys.has(k)));

  // Scenes: one per outline segment, at most the episode's scene count (about one a minute; segments beyond it
  // share a scene), else the findings' scenes.
  const MAX = Math.max(1, Math.min(40, input.scene_count));
  type Plan = { title: string; segments: string[]; findings: Finding[] };
  let plans: Plan[];
  if (segments.length) {
    const groups = Math.min(MAX, segments.length);
    plans = Array.from({ length: groups }, (_, i) => {
      const mine = segments.slice(
        Math.floor((i * segments.length) / groups),
        Math.floor(((i + 1) * segments.length) / groups),
      );
      return { title: mine.join('; '), segments: mine, findings: [] };
    });
    let turn = 0;
    for (const f of findings) {
      const keys = specificKeys(f.text);
      const score = plans.map((p) => [...specificKeys(p.segments.join(' '))].filter((k) => keys.has(k)).length);
      const best = Math.max(...score);
      // A finding about none of the segments in particular goes to the middle scenes in turn.
      const middle = plans.length > 2 ? plans.slice(1, -1) : plans;
      (best > 0 ? plans[score.indexOf(best)] : middle[turn++ % middle.length]).findings.push(f);
    }
  } else {
    const per = 3;
    const groups = Math.min(MAX - 1, Math.ceil(findings.length / per));
    plans = [{ title: `Introducing ${topic}`, segments: [], findings: [] }];
    for (let i = 0; i < groups; i++)
      plans.push({
        title: ctx.segments.length ? ctx.segments[i % ctx.segments.length] : `What the research says about ${topic}`,
        segments: [],
        findings: findings.slice(i * per, (i + 1) * per),
      });
  }

  const audience = ctx.audience?.replace(/[.!]+$/, '');
  const about = audience
    ? /\bfor\b/i.test(topic)
      ? `${topic}, with ${audience} in mind`
      : `${topic}, for ${audience}`
    : topic;
  const opening = guest
    ? `Welcome to ${ctx.show ?? 'the show'}. I'm ${host.name}, here with ${guest.name} to talk about ${about}.`
    : `Welcome to ${ctx.show ?? 'the show'}. I'm ${host.name}, and today I'm talking about ${about}.`;
  const closing = ctx.signOff ?? 'Thanks for listening, and see you next time.';
  const budget = input.target_words * 1.1;
  let words = countWords(opening) + countWords(closing) + (guest ? 5 : 0);

  const scenes: ScriptDraft['scenes'] = plans.map((p) => ({ title: p.title, lines: [] }));
  let turn = 0;
  const say = (scene: number, text: string) => {
    scenes[scene].lines.push({ speaker: input.speakers[turn % input.speakers.length].id, text });
    turn++;
  };
  say(0, opening);
  if (guest) say(0, `Thanks for having me, ${host.name}.`);
  // The segments are said whatever the budget (they are the brief); the findings while the episode stays within
  // its budget; a stock heading is announced only when a finding follows it (else it says nothing).
  const said = plans.map((p) => p.segments.filter((t) => titleKind(t) !== 'heading'));
  words += said.flat().reduce((n, t) => n + countWords(t), 0);
  const talk = plans.map((p) =>
    p.findings
      .map((f) => `According to ${f.source}, ${safeLower(f.text, proper)}`)
      .filter((line) => {
        if (words + countWords(line) > budget) return false;
        words += countWords(line);
        return true;
      }),
  );
  const announced = plans.flatMap((p, i) =>
    p.segments.filter((t) => titleKind(t) === 'label' || (titleKind(t) === 'heading' && talk[i].length)),
  );
  plans.forEach((p, i) => {
    for (const title of p.segments) {
      if (titleKind(title) === 'sentence') say(i, asSentence(title));
      else if (announced.includes(title)) {
        // Labelled by its place in the whole outline.
        const k = segments.indexOf(title);
        const label =
          k === 0 ? LABELS.first : k === segments.length - 1 ? LABELS.last : LABELS.next[k % LABELS.next.length];
        say(i, `${label}: ${title}.`);
      }
    }
    for (const line of talk[i]) say(i, line);
  });
  scenes[scenes.length - 1].lines.push({ speaker: host.id, text: closing });
  // A speaker's lines next to each other in a scene are one turn.
  for (const scene of scenes)
    scene.lines = scene.lines.reduce<typeof scene.lines>((out, l) => {
      const prev = out[out.length - 1];
      if (prev?.speaker === l.speaker) prev.text = `${prev.text} ${l.text}`;
      else out.push({ ...l });
      return out;
    }, []);
  // What the script was built from (outline segments as key points, research findings as sources), and why it is
  // shorter than the duration asks: it never pads to a length.
  const spoken = scenes.flatMap((s) => s.lines).reduce((n, l) => n + countWords(l.text), 0);
  const quoted = talk.flat().length;
  const coverage = coverageOf(readBrief({ topic, audience, keyPoints: segments, tone: input.tone }), {
    keyPoints: plans.flatMap((p) => p.segments).filter((t) => titleKind(t) === 'sentence' || announced.includes(t))
      .length,
    sources: quoted,
    words: spoken,
    targetWords: input.target_words,
  });
  if (coverage.shortfall)
    coverage.shortfall = `${spoken} of ${input.target_words} words (${input.duration_minutes} min at ${WORDS_PER_MINUTE} words a minute): the offline writer says only the brief (${segments.length} outline segment${segments.length === 1 ? '' : 's'}) and ${quoted} research finding${quoted === 1 ? '' : 's'} about it${input.research ? '' : ' (no research was given)'}, and adds nothing to reach the duration; add research or an analysis outline, or configure a language model (docs/providers.md)`;
  return { title: titleOf(topic), scenes: scenes.filter((s) => s.lines.length), coverage };
}

/**
 * A scene retaken with the client's own words (POST /api/podcast/audio `text`): each line of the text is spoken by
 * the speaker it names (`Maya: …`, by name or id, any case) or else by the speaker of the line before it — the
 * scene's first speaker at the start. Blank lines separate nothing; a name the script does not know is text.
 */
export function retakeLines(text: string, scene: Pick<ScriptScene, 'lines'>, speakers: Speaker[]): ScriptLine[] {
  const byName = new Map<string, string>();
  for (const s of speakers) for (const n of [s.id, s.name]) byName.set(n.trim().toLowerCase(), s.id);
  let speaker = scene.lines[0]?.speaker ?? speakers[0]?.id ?? '';
  const out: ScriptLine[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const m = /^\s*([^:\n]{1,60}):\s*(.*)$/.exec(raw);
    const named = m && byName.get(m[1].trim().toLowerCase());
    if (named) speaker = named;
    const said = (named ? m![2] : raw).trim();
    if (!said) continue;
    const last = out[out.length - 1];
    if (last && last.speaker === speaker && !named) last.text = `${last.text} ${said}`;
    else out.push({ speaker, text: said });
  }
  return out;
}
