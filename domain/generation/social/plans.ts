/**
 * Offline scene plans: video posts and reels (a hook, body scenes from the
 * best source sentences, a closing call to action; durations from
 * domain/writers/durations.ts) and stories (frames with the requested
 * interactive elements). A client's own script is kept word for word and
 * spread over the scenes by their durations.
 */
import type { ReelDraft, SceneDraft, StoryDraft, StoryFrameDraft, VideoPostDraft } from '../../writers/drafts';
import { narrationWords, planWeights, sceneCount, sceneDurations } from '../../writers/durations';
import type { ReelBrief, StoryBrief, VideoPostBrief } from '../../writers/types';
import { splitSentences } from '../../analysis/sentences';
import { wordsIn } from '../text';
import { topicPhrase } from '../social-compose';
import { emoji, Evidence, frame, hashtagsFor, Kit, labelOf, slotsOf } from './kit';

/** Hooks by strength: the topic after a preposition only (grammatical for any phrase), no promised count. */
const HOOK_LINES: Record<'soft' | 'medium' | 'strong', string[]> = {
  soft: ['A quick look at {topic}.', 'Here is something useful about {topic}.'],
  medium: ['What gets missed about {topic}?', 'A few things to know about {topic}.'],
  strong: ['Stop guessing at {topic}.', 'Most advice on {topic} misses this.'],
};

/** The client's script split into consecutive runs of sentences, one per scene, by the scenes' word budgets. */
function splitScript(script: string, durations: number[]): string[] {
  const sentences = splitSentences(script).map((sp) => script.slice(sp.start, sp.end));
  const total = durations.reduce((a, b) => a + b, 0);
  const words = sentences.map(wordsIn);
  const all = words.reduce((a, b) => a + b, 0);
  const out: string[] = durations.map(() => '');
  let scene = 0;
  let budget = (all * durations[0]) / total;
  let used = 0;
  sentences.forEach((s, i) => {
    if (used >= budget && scene < durations.length - 1) {
      scene++;
      budget += (all * durations[scene]) / total;
    }
    out[scene] = out[scene] ? `${out[scene]} ${s}` : s;
    used += words[i];
  });
  return out;
}

function scenePlan(
  k: Kit,
  total: number,
  opening: string,
  closing: string,
  visual: (i: number) => string,
  script?: string,
) {
  let count = sceneCount(total);
  const query = `${k.brief.topic} ${k.brief.industry}`;
  let evidence: Evidence[] = [];
  // A client's script gives at most one scene per sentence.
  if (script) count = Math.min(count, Math.max(1, splitSentences(script).length));
  if (!script && count > 2) {
    // One source sentence about the topic per body scene, short enough to speak in an average body scene; fewer
    // sentences, fewer scenes: with none, the plan is the hook and the closing call (nothing is said to fill time).
    const bodySeconds = (total * (count - 2)) / (count - 1);
    evidence = k.evidence(query, count - 2, narrationWords(bodySeconds / (count - 2)));
    count = evidence.length + 2;
  }
  const durations = sceneDurations(total, planWeights(count));
  const scripted = script ? splitScript(script, durations) : undefined;
  return durations.map((d, i): SceneDraft => {
    const last = i === durations.length - 1;
    const e = i > 0 && !last ? evidence[i - 1] : undefined;
    const narration = scripted ? scripted[i] : i === 0 ? opening : last ? closing : (e?.text ?? '');
    return {
      duration_seconds: d,
      narration,
      visual: visual(i),
      on_screen_text:
        i === 0 ? labelOf(k.brief.topic) : last ? closing.replace(/[.!]+$/, '') : e ? labelOf(e.text) : '',
    };
  });
}

export function writeVideoPost(k: Kit, b: VideoPostBrief): VideoPostDraft {
  const hook = frame(k.pick(HOOK_LINES.medium, 'hook'), slotsOf(k));
  const presenter = b.avatar.include ? `${b.avatar.style ?? 'avatar'} presenter` : 'presenter';
  const scenes = scenePlan(
    k,
    b.durationSeconds,
    hook,
    `${b.endScreenCta.replace(/[.!]+$/, '')}.`,
    (i) =>
      i === 0
        ? `${b.style}: ${presenter} on camera, ${b.aspectRatio} frame, title card "${labelOf(b.topic)}"`
        : `${b.style}: b-roll and captions illustrating the point${b.brand.colors.length ? `, accents in ${b.brand.colors.join(', ')}` : ''}`,
    b.script,
  );
  scenes[scenes.length - 1].visual = `End screen${b.includeLogo ? ' with logo' : ''}: "${b.endScreenCta}"`;
  const summary = k.evidence(b.topic, 1, 30)[0]?.text ?? '';
  return {
    title: labelOf(b.topic),
    hook,
    scenes,
    caption: [frame('{Topic}, in {seconds} seconds.', slotsOf(k, { seconds: String(b.durationSeconds) })), summary]
      .filter(Boolean)
      .join(' '),
    hashtags: hashtagsFor(k),
    voice_notes: [
      `${b.voice.type} voice`,
      b.voice.speed ? `${b.voice.speed} pace` : '',
      b.voice.emphasis ? `emphasis on ${b.voice.emphasis}` : '',
      b.brand.voice ? `brand voice: ${b.brand.voice}` : '',
      b.backgroundMusic !== 'none' ? `background music: ${b.backgroundMusic}` : 'no background music',
    ]
      .filter(Boolean)
      .join('; '),
    branding_notes: [
      b.includeLogo
        ? `logo${b.brand.logoUrl ? ` (${b.brand.logoUrl})` : ''} in the corner and on the end screen`
        : 'no logo',
      b.brand.colors.length ? `colours ${b.brand.colors.join(', ')}` : '',
      `end screen: ${b.endScreenCta}`,
    ]
      .filter(Boolean)
      .join('; '),
  };
}

/** On-screen label of body scene `i` by teaching method (source sentences are facts, so "myth" methods label facts). */
const METHOD_LABEL = (method: string, i: number, label: string) => {
  const m = method.toLowerCase();
  if (/myth|fact/.test(m)) return `Fact ${i}: ${label}`;
  if (/list|tip/.test(m)) return `Tip ${i}: ${label}`;
  return `Step ${i}: ${label}`;
};

export function writeReel(k: Kit, b: ReelBrief): ReelDraft {
  const hook = frame(k.pick(HOOK_LINES[b.hookStrength], 'hook'), slotsOf(k));
  const scenes = scenePlan(k, b.durationSeconds, hook, `${b.endScreenCta.replace(/[.!]+$/, '')}.`, (i) =>
    i === 0 ? `${b.style}: close-up, text hook on screen in the first second` : `${b.style}: quick cut, captioned`,
  );
  scenes.forEach((s, i) => {
    if (i > 0 && i < scenes.length - 1 && s.on_screen_text)
      s.on_screen_text = METHOD_LABEL(b.teachingMethod, i, s.on_screen_text);
  });
  return {
    hook,
    scenes,
    caption:
      `${emoji(k, 'lead')} ${frame('{Topic} in {seconds} seconds.', slotsOf(k, { seconds: String(b.durationSeconds) }))}`.trim(),
    hashtags: hashtagsFor(k),
    music_notes: `${b.musicMood} track; cut on the beat between scenes`,
  };
}

const ELEMENT: Record<string, (k: Kit) => StoryFrameDraft['interactive_element']> = {
  poll: (k) => ({
    type: 'poll',
    prompt: frame('Is this on your list: {topic}?', slotsOf(k)),
    options: ['Yes', 'Not yet'],
  }),
  // A quiz needs answers from the sources (their phrases about the topic); without two, it asks a question instead.
  quiz: (k) =>
    k.phrases.length >= 2
      ? {
          type: 'quiz',
          prompt: frame('Which of these is part of {topic}?', slotsOf(k)),
          options: k.phrases.slice(0, 3),
        }
      : { type: 'question', prompt: frame('What would you like to know about {topic}?', slotsOf(k)) },
  question: (k) => ({ type: 'question', prompt: frame('Ask me anything about {topic}', slotsOf(k)) }),
  countdown: (k) => ({ type: 'countdown', prompt: frame('{Topic}: coming up', slotsOf(k)) }),
  slider: (k) => ({ type: 'slider', prompt: frame('How confident do you feel about {topic}?', slotsOf(k)) }),
  link: (k) => ({ type: 'link', prompt: frame('Read more about {topic}', slotsOf(k)) }),
};

export function writeStory(k: Kit, b: StoryBrief): StoryDraft {
  // Each requested element (poll, quiz, question, countdown, slider, link) on its own frame after the first.
  const elements = b.interactiveElements.flatMap((e) => {
    const key = Object.keys(ELEMENT).find((x) => e.toLowerCase().includes(x));
    return key ? [ELEMENT[key]] : [];
  });
  // About one frame per 5 s, at most 10 and at most one per second; a middle frame carries a source sentence about
  // the topic or an element, so without sources the story is the opening, the elements and the call to action.
  const most = Math.min(10, b.durationSeconds, Math.max(2, Math.round(b.durationSeconds / 5), elements.length + 1));
  const evidence = k.evidence(`${b.topic} ${b.storyType}`, Math.max(0, most - 2), 22);
  const count = Math.min(most, Math.max(2, evidence.length + 2, elements.length + 1));
  const durations = sceneDurations(b.durationSeconds, Array(count).fill(1));
  const cta = b.callToAction || `Follow for more on ${topicPhrase(k.b)}`;
  const frames = durations.map((d, i): StoryFrameDraft => {
    const last = i === durations.length - 1;
    const e = i > 0 && !last ? evidence[i - 1] : undefined;
    const element = i > 0 ? elements[i - 1]?.(k) : undefined;
    return {
      duration_seconds: d,
      text:
        i === 0
          ? `${emoji(k, 'lead')} ${labelOf(b.topic)}`.trim()
          : last
            ? cta
            : (e?.text ?? element?.prompt ?? labelOf(b.topic)),
      visual_notes: `${b.visualStyle}${b.brandIntegration ? `; brand: ${b.brandIntegration}` : ''}${b.brand.colors.length ? `; colours ${b.brand.colors.join(', ')}` : ''}`,
      ...(element ? { interactive_element: element } : {}),
    };
  });
  return { frames, call_to_action: cta };
}
