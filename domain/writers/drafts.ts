/**
 * Drafts: what a provider returns for each kind, before the finishing rules
 * (limits, timing, slide counts) are applied. A text vendor is asked for
 * exactly these JSON shapes (domain/writers/prompts.ts) and its answer is
 * checked against the schemas below; the `local` writer
 * (domain/generation/social) produces the same shapes.
 */
import type { Coverage } from '../generation/compose';
import { anyString, arr, withRequired } from '../schema';

export interface PostDraft {
  hook: string;
  body: string;
  question?: string;
  poll?: { question: string; options: string[] };
  call_to_action?: string;
  hashtags: string[];
  image_prompt?: string;
}

export interface ArticleDraft {
  title: string;
  sections: Array<{ heading: string; body: string }>;
  hashtags: string[];
  image_prompt?: string;
  /** The offline writer only: how it met the brief (compose.ts); the activity moves it to `metadata.coverage`. */
  coverage?: Coverage;
}

export interface SceneDraft {
  duration_seconds: number;
  narration: string;
  visual: string;
  on_screen_text: string;
}

export interface VideoPostDraft {
  title: string;
  hook: string;
  scenes: SceneDraft[];
  caption: string;
  hashtags: string[];
  voice_notes: string;
  branding_notes: string;
}

export interface ReelDraft {
  hook: string;
  scenes: SceneDraft[];
  caption: string;
  hashtags: string[];
  music_notes: string;
}

export interface SlideDraft {
  kind: 'cover' | 'content' | 'cta';
  title: string;
  body: string;
  visual_notes: string;
}

export interface CarouselDraft {
  slides: SlideDraft[];
  caption: string;
  hashtags: string[];
  /** The offline writer only: what the slides were built from and why there are fewer than asked (`metadata.coverage`). */
  coverage?: Coverage;
}

export interface StoryFrameDraft {
  duration_seconds: number;
  text: string;
  visual_notes: string;
  interactive_element?: { type: string; prompt: string; options?: string[] };
}

export interface StoryDraft {
  frames: StoryFrameDraft[];
  call_to_action: string;
}

export interface EventDraft {
  title: string;
  description: string;
  highlights: string[];
  urgency_line?: string;
  social_proof?: string;
  announcement_post: string;
  reminder_post: string;
  follow_up_posts: string[];
  hashtags: string[];
}

export interface GroupPostDraft {
  title?: string;
  opening: string;
  body: string;
  discussion_question: string;
  call_to_action?: string;
  hashtags: string[];
}

export interface PageAboutDraft {
  text: string;
}

export interface AdVariantDraft {
  angle: string;
  primary_text: string;
  headline: string;
  description?: string;
  call_to_action: string;
}

export interface AdCopyDraft {
  variants: AdVariantDraft[];
}

export interface DraftByKind {
  post: PostDraft;
  article: ArticleDraft;
  video_post: VideoPostDraft;
  reel: ReelDraft;
  carousel: CarouselDraft;
  story: StoryDraft;
  event: EventDraft;
  group_post: GroupPostDraft;
  page_about: PageAboutDraft;
  ad_copy: AdCopyDraft;
}

const scene = withRequired(
  {
    duration_seconds: { type: 'number', minimum: 0 },
    narration: anyString,
    visual: anyString,
    on_screen_text: anyString,
  },
  ['duration_seconds', 'narration', 'visual'],
);

/** JSON Schemas a provider's draft must match (extra fields are ignored). */
export const DRAFT_SCHEMAS: Record<keyof DraftByKind, Record<string, unknown>> = {
  post: withRequired(
    {
      hook: anyString,
      body: anyString,
      question: anyString,
      poll: withRequired({ question: anyString, options: arr(anyString) }, ['question', 'options']),
      call_to_action: anyString,
      hashtags: arr(anyString),
      image_prompt: anyString,
    },
    ['hook', 'body'],
  ),
  article: withRequired(
    {
      title: anyString,
      sections: {
        type: 'array',
        minItems: 1,
        items: withRequired({ heading: anyString, body: anyString }, ['heading', 'body']),
      },
      hashtags: arr(anyString),
    },
    ['title', 'sections'],
  ),
  video_post: withRequired(
    {
      title: anyString,
      hook: anyString,
      scenes: { type: 'array', minItems: 1, items: scene },
      caption: anyString,
      hashtags: arr(anyString),
      voice_notes: anyString,
      branding_notes: anyString,
    },
    ['scenes', 'caption'],
  ),
  reel: withRequired(
    {
      hook: anyString,
      scenes: { type: 'array', minItems: 1, items: scene },
      caption: anyString,
      hashtags: arr(anyString),
      music_notes: anyString,
    },
    ['scenes', 'caption'],
  ),
  carousel: withRequired(
    {
      slides: {
        type: 'array',
        minItems: 1,
        items: withRequired(
          { kind: { enum: ['cover', 'content', 'cta'] }, title: anyString, body: anyString, visual_notes: anyString },
          ['title'],
        ),
      },
      caption: anyString,
      hashtags: arr(anyString),
    },
    ['slides'],
  ),
  story: withRequired(
    {
      frames: {
        type: 'array',
        minItems: 1,
        items: withRequired(
          {
            duration_seconds: { type: 'number', minimum: 0 },
            text: anyString,
            visual_notes: anyString,
            interactive_element: withRequired({ type: anyString, prompt: anyString, options: arr(anyString) }, [
              'type',
              'prompt',
            ]),
          },
          ['text'],
        ),
      },
      call_to_action: anyString,
    },
    ['frames'],
  ),
  event: withRequired(
    {
      title: anyString,
      description: anyString,
      highlights: arr(anyString),
      urgency_line: anyString,
      social_proof: anyString,
      announcement_post: anyString,
      reminder_post: anyString,
      follow_up_posts: arr(anyString),
      hashtags: arr(anyString),
    },
    ['title', 'description', 'announcement_post'],
  ),
  group_post: withRequired(
    {
      title: anyString,
      opening: anyString,
      body: anyString,
      discussion_question: anyString,
      call_to_action: anyString,
      hashtags: arr(anyString),
    },
    ['opening', 'body', 'discussion_question'],
  ),
  page_about: withRequired({ text: anyString }, ['text']),
  ad_copy: withRequired(
    {
      variants: {
        type: 'array',
        minItems: 1,
        items: withRequired(
          {
            angle: anyString,
            primary_text: anyString,
            headline: anyString,
            description: anyString,
            call_to_action: anyString,
          },
          ['primary_text', 'headline'],
        ),
      },
    },
    ['variants'],
  ),
};
