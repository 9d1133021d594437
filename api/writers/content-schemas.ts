/**
 * The `content` of each writer kind (docs/writers.md "Response shapes"), and a source as answers show it: the
 * schemas of the structured piece both writers answer with (responses.ts puts them in the writer's result).
 */
import { AD_FORMATS } from '../../domain/writers/ad-formats';
import type { WriterKind } from '../../domain/writers/types';
import type { JsonSchema } from '../kernel/envelopes/common';
import { allRequired, anyString, arr, bool, int, withRequired } from '../kernel/schema';

export const sourceOut = withRequired(
  {
    title: anyString,
    url: anyString,
    excerpt: anyString,
    credibility_score: { type: ['number', 'null'], description: 'null: no credibility claimed (sample documents)' },
    published_at: anyString,
    index: int,
    source_type: { ...anyString, description: 'web, academic, industry, government, or sample (a sample document)' },
    sample_of: { ...anyString, description: 'for sample documents: the kind of source the sample is written as' },
  },
  ['title', 'url'],
);

const strs = arr(anyString);
const nullableS = { type: ['string', 'null'] };
const sceneOut = allRequired({
  index: int,
  start_seconds: int,
  duration_seconds: { ...int, minimum: 1 },
  narration: anyString,
  visual: anyString,
  on_screen_text: anyString,
});

/** The `content` of each kind (docs/writers.md "Response shapes"); both writers use the same shape per kind. */
export const CONTENT_SCHEMAS: Record<WriterKind, JsonSchema> = {
  post: withRequired(
    {
      hook: anyString,
      body: anyString,
      question: anyString,
      poll: allRequired({ question: anyString, options: strs }),
      call_to_action: anyString,
      hashtags: strs,
      content_type: { ...anyString, description: "The request's content_type (tips, insight, ...)" },
      image_prompt: { ...anyString, description: 'When multimedia.include_image was asked' },
    },
    ['hook', 'body', 'hashtags', 'content_type'],
  ),
  article: allRequired({
    title: anyString,
    sections: arr(allRequired({ heading: anyString, body: anyString })),
    markdown: anyString,
    word_count: int,
    hashtags: strs,
    references: arr(sourceOut),
    content_type: anyString,
  }),
  video_post: allRequired({
    title: anyString,
    hook: anyString,
    script: anyString,
    scenes: arr(sceneOut),
    total_duration_seconds: int,
    aspect_ratio: anyString,
    caption: anyString,
    hashtags: strs,
    voice_notes: anyString,
    branding_notes: anyString,
    audio: allRequired({
      voice: withRequired({ type: anyString, speed: anyString, emphasis: anyString }, ['type']),
      background_music: anyString,
    }),
    avatar: allRequired({ include: bool, use_personal: bool, style: { type: ['string', 'null'] } }),
  }),
  reel: allRequired({
    hook: anyString,
    script: anyString,
    scenes: arr(sceneOut),
    total_duration_seconds: int,
    caption: anyString,
    hashtags: strs,
    music_notes: anyString,
    end_screen_cta: anyString,
    hook_strength: { enum: ['soft', 'medium', 'strong'] },
    teaching_method: anyString,
  }),
  carousel: withRequired(
    {
      slides: arr(
        allRequired({
          index: int,
          kind: { enum: ['cover', 'content', 'cta'] },
          title: anyString,
          body: anyString,
          visual_notes: anyString,
        }),
      ),
      slide_count: int,
      style: anyString,
      transitions: anyString,
      cta_link: anyString,
      caption: anyString,
      hashtags: strs,
    },
    ['slides', 'slide_count', 'style', 'caption', 'hashtags'],
  ),
  story: allRequired({
    story_type: anyString,
    frames: arr(
      withRequired(
        {
          index: int,
          start_seconds: int,
          duration_seconds: { ...int, minimum: 1 },
          text: anyString,
          visual_notes: anyString,
          interactive_element: withRequired({ type: anyString, prompt: anyString, options: strs }, ['type', 'prompt']),
        },
        ['index', 'start_seconds', 'duration_seconds', 'text', 'visual_notes'],
      ),
    ),
    total_duration_seconds: int,
    call_to_action: anyString,
  }),
  event: withRequired(
    {
      title: anyString,
      description: anyString,
      schedule: allRequired({ date: nullableS, duration: nullableS, type: nullableS }),
      highlights: strs,
      urgency_line: anyString,
      social_proof: {
        ...anyString,
        description: 'A quoted source sentence (include_social_proof), never an invented number',
      },
      announcement_post: anyString,
      reminder_post: anyString,
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
  group_post: withRequired(
    {
      title: anyString,
      opening: anyString,
      body: anyString,
      discussion_question: anyString,
      call_to_action: anyString,
      hashtags: strs,
      engagement_goal: anyString,
    },
    ['opening', 'body', 'discussion_question', 'hashtags', 'engagement_goal'],
  ),
  page_about: allRequired({ text: anyString, character_limit: int, character_count: int }),
  ad_copy: allRequired({
    ad_format: { enum: [...AD_FORMATS] },
    campaign_objective: anyString,
    format_limits: allRequired({
      primary_text: int,
      headline: int,
      description: int,
      variants: int,
      checked_at: anyString,
      source: anyString,
    }),
    variants: arr(
      withRequired(
        {
          index: int,
          angle: anyString,
          primary_text: anyString,
          headline: anyString,
          description: anyString,
          call_to_action: anyString,
          character_counts: withRequired({ primary_text: int, headline: int, description: int }, [
            'primary_text',
            'headline',
          ]),
        },
        ['index', 'angle', 'primary_text', 'headline', 'call_to_action', 'character_counts'],
      ),
    ),
  }),
};

export const KINDS = Object.keys(CONTENT_SCHEMAS) as WriterKind[];
