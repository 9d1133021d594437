/**
 * The `content` of each writer kind (docs/writers.md "Response shapes"), and a source as answers show it: the
 * schemas of the structured piece both writers answer with (responses.ts puts them in the writer's result).
 */
import { AD_FORMATS } from '../../domain/writers/ad-formats';
import type { WriterKind } from '../../domain/writers/types';
import type { JsonSchema } from '../kernel/envelopes/common';
import { arr, b, i, o, s } from './response-shorthand';

export const sourceOut = o(
  {
    title: s,
    url: s,
    excerpt: s,
    credibility_score: { type: ['number', 'null'], description: 'null: no credibility claimed (sample documents)' },
    published_at: s,
    index: i,
    source_type: { ...s, description: 'web, academic, industry, government, or sample (a sample document)' },
    sample_of: { ...s, description: 'for sample documents: the kind of source the sample is written as' },
  },
  ['title', 'url'],
);

const strs = arr(s);
const nullableS = { type: ['string', 'null'] };
const sceneOut = o({
  index: i,
  start_seconds: i,
  duration_seconds: { ...i, minimum: 1 },
  narration: s,
  visual: s,
  on_screen_text: s,
});

/** The `content` of each kind (docs/writers.md "Response shapes"); both writers use the same shape per kind. */
export const CONTENT_SCHEMAS: Record<WriterKind, JsonSchema> = {
  post: o(
    {
      hook: s,
      body: s,
      question: s,
      poll: o({ question: s, options: strs }),
      call_to_action: s,
      hashtags: strs,
      content_type: { ...s, description: "The request's content_type (tips, insight, ...)" },
      image_prompt: { ...s, description: 'When multimedia.include_image was asked' },
    },
    ['hook', 'body', 'hashtags', 'content_type'],
  ),
  article: o({
    title: s,
    sections: arr(o({ heading: s, body: s })),
    markdown: s,
    word_count: i,
    hashtags: strs,
    references: arr(sourceOut),
    content_type: s,
  }),
  video_post: o({
    title: s,
    hook: s,
    script: s,
    scenes: arr(sceneOut),
    total_duration_seconds: i,
    aspect_ratio: s,
    caption: s,
    hashtags: strs,
    voice_notes: s,
    branding_notes: s,
    audio: o({ voice: o({ type: s, speed: s, emphasis: s }, ['type']), background_music: s }),
    avatar: o({ include: b, use_personal: b, style: { type: ['string', 'null'] } }),
  }),
  reel: o({
    hook: s,
    script: s,
    scenes: arr(sceneOut),
    total_duration_seconds: i,
    caption: s,
    hashtags: strs,
    music_notes: s,
    end_screen_cta: s,
    hook_strength: { enum: ['soft', 'medium', 'strong'] },
    teaching_method: s,
  }),
  carousel: o(
    {
      slides: arr(o({ index: i, kind: { enum: ['cover', 'content', 'cta'] }, title: s, body: s, visual_notes: s })),
      slide_count: i,
      style: s,
      transitions: s,
      cta_link: s,
      caption: s,
      hashtags: strs,
    },
    ['slides', 'slide_count', 'style', 'caption', 'hashtags'],
  ),
  story: o({
    story_type: s,
    frames: arr(
      o(
        {
          index: i,
          start_seconds: i,
          duration_seconds: { ...i, minimum: 1 },
          text: s,
          visual_notes: s,
          interactive_element: o({ type: s, prompt: s, options: strs }, ['type', 'prompt']),
        },
        ['index', 'start_seconds', 'duration_seconds', 'text', 'visual_notes'],
      ),
    ),
    total_duration_seconds: i,
    call_to_action: s,
  }),
  event: o(
    {
      title: s,
      description: s,
      schedule: o({ date: nullableS, duration: nullableS, type: nullableS }),
      highlights: strs,
      urgency_line: s,
      social_proof: { ...s, description: 'A quoted source sentence (include_social_proof), never an invented number' },
      announcement_post: s,
      reminder_post: s,
      follow_up_posts: strs,
      hashtags: strs,
    },
    [
      'title',
      'description',
      'schedule',
      'highlights',
      'announcement_post',
      'reminder_post',
      'follow_up_posts',
      'hashtags',
    ],
  ),
  group_post: o(
    {
      title: s,
      opening: s,
      body: s,
      discussion_question: s,
      call_to_action: s,
      hashtags: strs,
      engagement_goal: s,
    },
    ['opening', 'body', 'discussion_question', 'hashtags', 'engagement_goal'],
  ),
  page_about: o({ text: s, character_limit: i, character_count: i }),
  ad_copy: o({
    ad_format: { enum: [...AD_FORMATS] },
    campaign_objective: s,
    format_limits: o({ primary_text: i, headline: i, description: i, variants: i, checked_at: s, source: s }),
    variants: arr(
      o(
        {
          index: i,
          angle: s,
          primary_text: s,
          headline: s,
          description: s,
          call_to_action: s,
          character_counts: o({ primary_text: i, headline: i, description: i }, ['primary_text', 'headline']),
        },
        ['index', 'angle', 'primary_text', 'headline', 'call_to_action', 'character_counts'],
      ),
    ),
  }),
};

export const KINDS = Object.keys(CONTENT_SCHEMAS) as WriterKind[];
