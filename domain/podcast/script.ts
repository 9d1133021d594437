/**
 * Podcast scripts (pure): sizing by duration (WORDS_PER_MINUTE spoken words a
 * minute), speakers with distinct voices, a writer's draft (vendor or offline:
 * local-script.ts) turned into numbered scenes of speaker lines, titles, and a
 * scene retaken with the client's own words.
 */
import { Coverage } from '../generation/compose';
import { genderOfName } from '../media/names';
import { speakerVoices } from '../media/voices';
import { plainNarration } from '../media/narration';
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
