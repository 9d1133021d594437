/**
 * Finishing rules of the planned kinds: video posts, reels, stories and
 * carousels. Scene and frame durations are made to sum to exactly the
 * requested seconds (largest-remainder rounding of what the provider gave),
 * narration is cut at a sentence boundary to what can be spoken in its
 * scene (150 words a minute), slides are held to the requested count with
 * the cover first and the call to action last.
 */
import type { CarouselDraft, ReelDraft, SceneDraft, StoryDraft, VideoPostDraft } from './drafts';
import { narrationWords, sceneDurations } from './durations';
import { Finished, Finisher, joinParts } from './finish-common';
import { shortenToWords } from './text-limits';
import type { CarouselBrief, ReelBrief, StoryBrief, VideoPostBrief } from './types';

/** Integer durations summing to `total`: the given ones when they already do, else rescaled (recorded). */
function timing(f: Finisher, given: number[], total: number, field: string): number[] {
  const ok = given.every((g) => Number.isInteger(g) && g >= 1) && given.reduce((a, b) => a + b, 0) === total;
  if (ok) return given;
  const out = sceneDurations(
    total,
    given.map((g) => (g > 0 ? g : 1)),
  );
  f.adjustments.push({
    field,
    rule: 'duration',
    before: Math.round(given.reduce((a, b) => a + Math.max(0, b), 0)),
    after: total,
    detail: `durations rescaled to sum to exactly ${total} seconds`,
  });
  return out;
}

/** At most `max` items (one per second at least), recorded when some are dropped. */
function capCount<T>(f: Finisher, items: T[], max: number, field: string, rule: 'duration' | 'slides'): T[] {
  if (items.length <= max) return items;
  f.adjustments.push({
    field,
    rule,
    before: items.length,
    after: max,
    detail: rule === 'duration' ? `a ${max}-second plan holds at most ${max} scenes` : `kept ${max} slides`,
  });
  return items.slice(0, max);
}

function scenesOf(f: Finisher, drafted: SceneDraft[], total: number) {
  const scenes = capCount(f, drafted, total, 'content.scenes', 'duration');
  const durations = timing(
    f,
    scenes.map((s) => s.duration_seconds),
    total,
    'content.scenes',
  );
  let start = 0;
  return scenes.map((s, i) => {
    const words = narrationWords(durations[i]);
    const n = shortenToWords(f.emojiRule(s.narration, `content.scenes.${i}.narration`), words);
    if (n.shortened)
      f.adjustments.push({
        field: `content.scenes.${i}.narration`,
        rule: 'max_words',
        before: s.narration.split(/\s+/).length,
        after: n.text.split(/\s+/).filter(Boolean).length,
        detail: `narration cut at a sentence boundary to fit ${durations[i]} s (${words} words at 150 a minute)`,
      });
    const scene = {
      index: i + 1,
      start_seconds: start,
      duration_seconds: durations[i],
      narration: n.text,
      visual: (s.visual ?? '').trim(),
      on_screen_text: f.short(s.on_screen_text ?? '', 80, `content.scenes.${i}.on_screen_text`),
    };
    start += durations[i];
    return scene;
  });
}

export function finishVideoPost(b: VideoPostBrief, d: VideoPostDraft): Finished {
  const f = new Finisher(b);
  const scenes = scenesOf(f, d.scenes, b.durationSeconds);
  const tags = f.hashtags(d.hashtags);
  const caption = f.feed(joinParts([d.caption, tags.join(' ')]), 'content.caption');
  const script = scenes
    .map((s) => s.narration)
    .filter(Boolean)
    .join(' ');
  return {
    text: joinParts([d.title, script, caption]),
    scored: caption,
    adjustments: f.adjustments,
    content: {
      title: f.short(d.title ?? b.topic, 100, 'content.title'),
      hook: (d.hook ?? scenes[0]?.narration ?? '').trim(),
      script,
      scenes,
      total_duration_seconds: scenes.reduce((a, s) => a + s.duration_seconds, 0),
      aspect_ratio: b.aspectRatio,
      caption,
      hashtags: tags,
      voice_notes: (d.voice_notes ?? '').trim(),
      branding_notes: (d.branding_notes ?? '').trim(),
      audio: { voice: b.voice, background_music: b.backgroundMusic },
      avatar: { include: b.avatar.include, use_personal: b.avatar.usePersonal, style: b.avatar.style ?? null },
    },
  };
}

export function finishReel(b: ReelBrief, d: ReelDraft): Finished {
  const f = new Finisher(b);
  const scenes = scenesOf(f, d.scenes, b.durationSeconds);
  const tags = f.hashtags(d.hashtags);
  const caption = f.feed(joinParts([d.caption, tags.join(' ')]), 'content.caption');
  const script = scenes
    .map((s) => s.narration)
    .filter(Boolean)
    .join(' ');
  return {
    text: joinParts([script, caption]),
    scored: caption,
    adjustments: f.adjustments,
    content: {
      hook: (d.hook ?? scenes[0]?.narration ?? '').trim(),
      script,
      scenes,
      total_duration_seconds: scenes.reduce((a, s) => a + s.duration_seconds, 0),
      caption,
      hashtags: tags,
      music_notes: (d.music_notes ?? '').trim(),
      end_screen_cta: b.endScreenCta,
      hook_strength: b.hookStrength,
      teaching_method: b.teachingMethod,
    },
  };
}

export function finishStory(b: StoryBrief, d: StoryDraft): Finished {
  const f = new Finisher(b);
  const frames = capCount(f, d.frames, b.durationSeconds, 'content.frames', 'duration');
  const durations = timing(
    f,
    frames.map((x) => x.duration_seconds ?? 0),
    b.durationSeconds,
    'content.frames',
  );
  let start = 0;
  const out = frames.map((x, i) => {
    const frame = {
      index: i + 1,
      start_seconds: start,
      duration_seconds: durations[i],
      text: f.feed(x.text, `content.frames.${i}.text`, f.limits.max_item_characters ?? 120),
      visual_notes: (x.visual_notes ?? '').trim(),
      ...(x.interactive_element ? { interactive_element: x.interactive_element } : {}),
    };
    start += durations[i];
    return frame;
  });
  const cta = f.short(d.call_to_action ?? b.callToAction, 120, 'content.call_to_action');
  return {
    // The call to action is its own line unless the last frame already says it.
    text: joinParts([...out.map((x) => x.text), out[out.length - 1]?.text === cta ? '' : cta], '\n'),
    adjustments: f.adjustments,
    content: {
      story_type: b.storyType,
      frames: out,
      total_duration_seconds: b.durationSeconds,
      call_to_action: cta,
    },
  };
}

export function finishCarousel(b: CarouselBrief, d: CarouselDraft): Finished {
  const f = new Finisher(b);
  let slides = d.slides;
  if (slides.length > b.slides) {
    // Keep the cover, the first content slides and the closing call to action.
    f.adjustments.push({
      field: 'content.slides',
      rule: 'slides',
      before: slides.length,
      after: b.slides,
      detail: `${b.slides} slides were requested`,
    });
    slides = [...slides.slice(0, b.slides - 1), slides[slides.length - 1]];
  }
  const titleMax = f.limits.max_title_characters ?? 60;
  const bodyMax = f.limits.max_item_characters ?? 280;
  const out = slides.map((s, i) => ({
    index: i + 1,
    kind: i === 0 ? 'cover' : i === slides.length - 1 && slides.length > 1 ? 'cta' : 'content',
    title: f.short(s.title, titleMax, `content.slides.${i}.title`),
    body: f.short(s.body ?? '', bodyMax, `content.slides.${i}.body`, true),
    visual_notes: (s.visual_notes ?? '').trim(),
  }));
  const tags = f.hashtags(d.hashtags);
  const caption = f.feed(joinParts([d.caption, tags.join(' ')]), 'content.caption');
  return {
    text: joinParts([...out.map((s) => joinParts([`${s.index}. ${s.title}`, s.body], '\n')), caption]),
    scored: caption,
    adjustments: f.adjustments,
    content: {
      slides: out,
      slide_count: out.length,
      style: b.style,
      ...(b.transitions ? { transitions: b.transitions } : {}),
      ...(b.cta.link ? { cta_link: b.cta.link } : {}),
      caption,
      hashtags: tags,
    },
  };
}
