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

/**
 * The offline writer: scene titles from the idea's aspects, each scene's words
 * written by the template writer to its budget and handed to the speakers in
 * turn, one or two sentences a line; the host opens and closes the episode.
 */
export function localScript(input: ScriptInput): ScriptDraft {
  const budgets = sceneWordBudgets(input.target_words, input.scene_count);
  const topic = input.idea.replace(/[.!?]+$/, '');
  const [host, ...others] = input.speakers;
  const guest = others[0] ?? host;
  const titles = budgets.map((_, i) =>
    i === 0
      ? `Introducing ${topic}`
      : i === budgets.length - 1
        ? `Takeaways on ${topic}`
        : ASPECTS[(i - 1) % ASPECTS.length](topic),
  );
  const scenes = budgets.map((words, i) => {
    const opening =
      i === 0
        ? [
            `Welcome to the show. I'm ${host.name}${guest !== host ? `, and with me is ${guest.name}` : ''}. Today: ${topic}.`,
          ]
        : [];
    const closing = i === budgets.length - 1 ? ['Thanks for listening, and see you next time.'] : [];
    const fixed = [...opening, ...closing].reduce((n, s) => n + countWords(s), 0);
    const body = writeSection({
      heading: titles[i],
      keyPoints: [titles[i]],
      targetWords: Math.max(8, words - fixed),
      tone: input.tone ?? 'conversational',
      topic,
    });
    const sentences = takeWords(narrationSentences(body.markdown), Math.max(8, words - fixed));
    const lines: ScriptDraft['scenes'][number]['lines'] = opening.map((text) => ({ speaker: host.id, text }));
    // Speakers alternate every two sentences (a speaker who opened the scene answers next).
    let turn = opening.length ? 1 : 0;
    for (let k = 0; k < sentences.length; k += 2) {
      const who = input.speakers[turn % input.speakers.length];
      lines.push({ speaker: who.id, text: sentences.slice(k, k + 2).join(' ') });
      turn++;
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
