/**
 * Drafts: what a provider returns for each kind, before the finishing rules
 * (limits, timing, slide counts) are applied. A text vendor is asked for
 * exactly these JSON shapes (domain/writers/prompts.ts) and its answer is
 * checked against the schemas below; the `local` writer
 * (domain/generation/social) produces the same shapes.
 */
import type { Coverage } from '../generation/compose';

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

const s = { type: 'string' };
const strs = { type: 'array', items: s };
const o = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required });
const scene = o({ duration_seconds: { type: 'number', minimum: 0 }, narration: s, visual: s, on_screen_text: s }, [
  'duration_seconds',
  'narration',
  'visual',
]);

/** JSON Schemas a provider's draft must match (extra fields are ignored). */
export const DRAFT_SCHEMAS: Record<keyof DraftByKind, Record<string, unknown>> = {
  post: o(
    {
      hook: s,
      body: s,
      question: s,
      poll: o({ question: s, options: strs }, ['question', 'options']),
      call_to_action: s,
      hashtags: strs,
      image_prompt: s,
    },
    ['hook', 'body'],
  ),
  article: o(
    {
      title: s,
      sections: { type: 'array', minItems: 1, items: o({ heading: s, body: s }, ['heading', 'body']) },
      hashtags: strs,
    },
    ['title', 'sections'],
  ),
  video_post: o(
    {
      title: s,
      hook: s,
      scenes: { type: 'array', minItems: 1, items: scene },
      caption: s,
      hashtags: strs,
      voice_notes: s,
      branding_notes: s,
    },
    ['scenes', 'caption'],
  ),
  reel: o(
    { hook: s, scenes: { type: 'array', minItems: 1, items: scene }, caption: s, hashtags: strs, music_notes: s },
    ['scenes', 'caption'],
  ),
  carousel: o(
    {
      slides: {
        type: 'array',
        minItems: 1,
        items: o({ kind: { enum: ['cover', 'content', 'cta'] }, title: s, body: s, visual_notes: s }, ['title']),
      },
      caption: s,
      hashtags: strs,
    },
    ['slides'],
  ),
  story: o(
    {
      frames: {
        type: 'array',
        minItems: 1,
        items: o(
          {
            duration_seconds: { type: 'number', minimum: 0 },
            text: s,
            visual_notes: s,
            interactive_element: o({ type: s, prompt: s, options: strs }, ['type', 'prompt']),
          },
          ['text'],
        ),
      },
      call_to_action: s,
    },
    ['frames'],
  ),
  event: o(
    {
      title: s,
      description: s,
      highlights: strs,
      urgency_line: s,
      social_proof: s,
      announcement_post: s,
      reminder_post: s,
      follow_up_posts: strs,
      hashtags: strs,
    },
    ['title', 'description', 'announcement_post'],
  ),
  group_post: o({ title: s, opening: s, body: s, discussion_question: s, call_to_action: s, hashtags: strs }, [
    'opening',
    'body',
    'discussion_question',
  ]),
  page_about: o({ text: s }, ['text']),
  ad_copy: o(
    {
      variants: {
        type: 'array',
        minItems: 1,
        items: o({ angle: s, primary_text: s, headline: s, description: s, call_to_action: s }, [
          'primary_text',
          'headline',
        ]),
      },
    },
    ['variants'],
  ),
};
