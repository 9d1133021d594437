/**
 * Request → brief, with the user's preferences applied as defaults: a field
 * the request leaves out takes the stored preference, and every value taken
 * that way is listed (`defaults_applied`) so the client sees where it came
 * from. What neither gives gets the writer's default (documented in
 * docs/writers.md). Durations outside a format's range are refused here
 * (400 naming the field).
 */
import { ValidationError } from '../errors';
import { AD_FORMATS, DEFAULT_AD_FORMAT } from './ad-formats';
import { parseDuration } from './durations';
import { formatLimits } from './platforms';
import type { WriterPreferences } from './preferences';
import {
  DEFAULT_ARTICLE_WORDS,
  DEFAULT_DURATIONS,
  DEFAULT_PAGE_ABOUT_LIMIT,
  DEFAULT_SLIDES,
  ProfnetCarouselRequest,
  SocialCarouselRequest,
  WriterRequest,
} from './requests';
import type { AppliedDefault, CarouselBrief, WriterBrief, WriterJob, WriterPlatform } from './types';

/** Tone of a writer when neither the request nor the preferences give one. */
export const DEFAULT_TONE: Record<WriterPlatform, string> = { profnet: 'professional', socialnet: 'friendly' };

class Defaults {
  readonly applied: AppliedDefault[] = [];
  constructor(private readonly prefs: WriterPreferences) {}
  /** The request's value, else the preference at `from` (recorded), else `fallback`. */
  take<T>(requested: T | undefined, field: string, from: string, fallback: T): T {
    if (requested !== undefined && requested !== null && requested !== '') return requested;
    const [group, key] = from.split('.') as [keyof WriterPreferences, string];
    const v = (this.prefs[group] as Record<string, unknown>)[key] as T | undefined;
    if (v !== undefined && v !== null && v !== '') {
      this.applied.push({ field, from, value: v });
      return v;
    }
    return fallback;
  }
}

function durationOf(
  value: string | number | undefined,
  field: string,
  fallback: number,
  range?: [number, number],
): number {
  const s = value === undefined ? fallback : parseDuration(value);
  if (range && (s < range[0] || s > range[1]))
    throw new ValidationError([
      {
        location: 'body',
        path: field,
        kind: 'constraint',
        message: `${field} must be between ${range[0]}_seconds and ${range[1]}_seconds for this format`,
        provided_value: value,
      },
    ]);
  return s;
}

const words = (s?: string) => (s ?? '').trim();

/** What a carousel's brief takes from its writer's request: the two writers name these fields differently. */
type CarouselFields = Pick<CarouselBrief, 'style' | 'cover' | 'contentSlides' | 'cta' | 'storyArc' | 'transitions'> & {
  research?: boolean;
};

const CAROUSEL_STYLE = 'clean, high-contrast';

function profnetCarousel(r: ProfnetCarouselRequest): CarouselFields {
  return {
    research: r.research_enabled,
    style: words(r.style) || CAROUSEL_STYLE,
    cover: {
      title: r.cover_slide?.title,
      subtitle: r.cover_slide?.subtitle,
      backgroundImage: r.cover_slide?.background_image,
      backgroundStyle: undefined,
    },
    contentSlides: (r.content_slides ?? []).map((s) => ({ focus: s.focus, visualStyle: s.visual_style })),
    cta: { action: r.cta_slide?.action, link: r.cta_slide?.link },
    storyArc: undefined,
    transitions: undefined,
  };
}

function socialCarousel(r: SocialCarouselRequest): CarouselFields {
  return {
    style: words(r.visual_theme) || CAROUSEL_STYLE,
    cover: {
      title: r.cover_slide?.title,
      subtitle: r.cover_slide?.subtitle,
      backgroundImage: undefined,
      backgroundStyle: r.cover_slide?.background_style,
    },
    contentSlides: Object.entries(r.content_distribution ?? {}).flatMap(([focus, n]) =>
      Array.from({ length: Math.max(0, Math.floor(n)) }, () => ({ focus, visualStyle: r.visual_theme })),
    ),
    cta: { action: undefined, link: undefined },
    storyArc: r.story_arc,
    transitions: r.slide_transitions,
  };
}

/** Request fields every writer shares (each route has some of them). */
interface BaseFields {
  tone?: string;
  audience?: string;
  industry?: string;
  include_hashtags?: boolean;
  include_emoji?: boolean;
  max_length?: number;
  research_enabled?: boolean;
}

/** Builds the job of one generation (route body or batch item) for a user with these preferences. */
export function buildJob(request: WriterRequest, prefs: WriterPreferences, field = ''): WriterJob {
  const { platform, kind, body: r } = request;
  const d = new Defaults(prefs);
  const at = (f: string) => (field ? `${field}.${f}` : f);
  const limits = formatLimits(platform, kind);
  const brand = {
    voice: d.take<string | undefined>(undefined, 'brand_voice', 'brand_settings.brand_voice', undefined),
    colors: d.take<string[]>(undefined, 'brand_colors', 'brand_settings.colors', []),
    logoUrl: d.take<string | undefined>(undefined, 'logo_url', 'brand_settings.logo_url', undefined),
  };
  const base = (f: BaseFields, o: { hashtags?: boolean | 'never'; emoji?: 'never' } = {}) => {
    // max_length is a preference of text posts; scene plans and slides have their own limits.
    const textPost = kind === 'post' || kind === 'article' || kind === 'group_post';
    const maxLength = textPost ? d.take(f.max_length, 'max_length', 'content_defaults.max_length', 0) : 0;
    return {
      platform,
      tone: d.take(f.tone, 'tone', 'content_defaults.tone', brand.voice ?? DEFAULT_TONE[platform]),
      audience: words(f.audience),
      industry: d.take(f.industry, 'industry', 'content_defaults.industry', ''),
      includeHashtags:
        o.hashtags === 'never'
          ? false
          : d.take(f.include_hashtags, 'include_hashtags', 'content_defaults.include_hashtags', o.hashtags ?? true),
      includeEmoji: o.emoji === 'never' ? false : (f.include_emoji ?? platform === 'socialnet'),
      maxCharacters: maxLength > 0 ? Math.min(maxLength, limits.max_characters) : limits.max_characters,
      brand,
      research: f.research_enabled ?? true,
    };
  };
  let brief: WriterBrief;
  switch (kind) {
    case 'post': {
      if (platform === 'profnet') {
        brief = {
          ...base(r),
          kind,
          topic: r.topic.trim(),
          contentType: words(r.content_type) || 'insight',
          question: true,
          poll: false,
          cta: true,
          image: { requested: r.multimedia?.include_image ?? false, style: r.multimedia?.image_style },
          video: { requested: r.multimedia?.generate_video ?? false },
        };
      } else {
        brief = {
          ...base(r),
          kind,
          topic: r.topic.trim(),
          contentType: words(r.content_type) || 'update',
          question: r.engagement_hooks?.include_question ?? true,
          poll: r.engagement_hooks?.include_poll ?? false,
          cta: r.engagement_hooks?.add_cta ?? true,
          image: { requested: r.multimedia?.include_image ?? false, style: r.multimedia?.image_style },
          video: { requested: r.multimedia?.generate_video ?? false },
          algorithmFocus: r.platform_optimization?.algorithm_focus,
          postingStrategy: r.platform_optimization?.posting_strategy,
        };
      }
      break;
    }
    case 'article': {
      brief = {
        ...base(r),
        kind,
        topic: r.topic.trim(),
        contentType: words(r.content_type) || 'thought leadership',
        targetWords: r.target_words ?? DEFAULT_ARTICLE_WORDS,
        image: { requested: r.multimedia?.include_image ?? false, style: r.multimedia?.image_style },
      };
      break;
    }
    case 'video_post': {
      brief = {
        ...base({ industry: r.industry, research_enabled: r.research_enabled }),
        kind,
        topic: r.topic.trim(),
        durationSeconds: durationOf(r.duration, at('duration'), DEFAULT_DURATIONS.video_post, limits.duration_seconds),
        style: d.take(r.style, 'style', 'multimedia_defaults.video_style', 'talking head with b-roll'),
        endScreenCta: words(r.branding?.end_screen_cta) || 'Follow for more',
        aspectRatio: words(r.aspect_ratio) || '1:1',
        voice: {
          type: d.take(r.voice?.type ?? r.voice_type, 'voice_type', 'multimedia_defaults.voice_preference', 'natural'),
          speed: r.voice?.speed,
          emphasis: r.voice?.emphasis,
        },
        backgroundMusic: d.take(
          r.background?.music ?? r.background_music,
          'background_music',
          'multimedia_defaults.background_music',
          'none',
        ),
        background: { type: r.background?.type, music: r.background?.music },
        avatar: {
          include: r.include_avatar ?? false,
          usePersonal: r.avatar?.use_personal ?? false,
          style: d.take(r.avatar?.style, 'avatar.style', 'multimedia_defaults.avatar_preference', undefined),
        },
        includeLogo: r.branding?.include_logo ?? Boolean(brand.logoUrl),
        script: r.script?.trim() || undefined,
        render: r.render ?? r.generate_video ?? false,
        renderOptions: r.render_options ?? {},
      };
      break;
    }
    case 'carousel': {
      const c = platform === 'profnet' ? profnetCarousel(r) : socialCarousel(r);
      brief = {
        ...base({ research_enabled: c.research }),
        kind,
        topic: r.topic.trim(),
        slides: r.slides ?? DEFAULT_SLIDES[platform],
        style: c.style,
        cover: c.cover,
        contentSlides: c.contentSlides,
        cta: c.cta,
        storyArc: c.storyArc,
        transitions: c.transitions,
        renderImages: r.render_images ?? false,
        renderOptions: r.render_options ?? {},
      };
      break;
    }
    case 'story': {
      brief = {
        ...base({}),
        kind,
        topic: r.topic.trim(),
        storyType: words(r.story_type) || 'tips',
        durationSeconds: durationOf(r.duration, at('duration'), DEFAULT_DURATIONS.story, limits.duration_seconds),
        visualStyle: words(r.visual_style) || 'bold text over brand colours',
        brandIntegration: words(r.brand_integration) || 'subtle',
        callToAction: words(r.call_to_action),
        interactiveElements: (r.interactive_elements ?? []).map((e) => e.trim()).filter(Boolean),
      };
      break;
    }
    case 'reel': {
      const hs = words(r.hook_strength).toLowerCase();
      brief = {
        ...base({}),
        kind,
        topic: r.topic.trim(),
        durationSeconds: durationOf(r.duration, at('duration'), DEFAULT_DURATIONS.reel, limits.duration_seconds),
        style: words(r.style) || 'fast cuts with captions',
        endScreenCta: words(r.end_screen_cta) || 'Follow for more',
        hookStrength: /strong|high|bold|aggressive/.test(hs)
          ? 'strong'
          : /soft|low|gentle|subtle/.test(hs)
            ? 'soft'
            : 'medium',
        teachingMethod: words(r.teaching_method) || 'step by step',
        musicMood: words(r.music_mood) || 'upbeat',
      };
      break;
    }
    case 'event': {
      const e = r.event_details;
      brief = {
        ...base({}),
        kind,
        topic: e.name.trim(),
        audience: words(e.target_audience),
        event: {
          name: e.name.trim(),
          date: e.date,
          duration: words(e.duration) || undefined,
          type: words(e.type) || undefined,
          targetAudience: words(e.target_audience) || undefined,
        },
        contentFocus: words(r.content_focus),
        urgency: words(r.urgency_elements),
        socialProof: r.include_social_proof ?? false,
        followUp: r.follow_up_content ?? false,
      };
      break;
    }
    case 'group_post': {
      brief = {
        ...base({}, { hashtags: false }),
        kind,
        topic: r.topic.trim(),
        group: {
          type: words(r.group_context?.group_type) || undefined,
          size: words(r.group_context?.group_size) || undefined,
          engagementLevel: words(r.group_context?.engagement_level) || undefined,
        },
        contentType: words(r.content_type) || 'discussion',
        goal: words(r.engagement_goal) || 'discussion',
        valueProposition: words(r.value_proposition),
      };
      break;
    }
    case 'page_about': {
      const limit = r.character_limit ?? DEFAULT_PAGE_ABOUT_LIMIT;
      brief = {
        ...base(
          { tone: r.tone, industry: r.industry, audience: r.target_audience },
          { hashtags: 'never', emoji: 'never' },
        ),
        kind,
        topic: r.business_type.trim(),
        maxCharacters: limit,
        businessType: r.business_type.trim(),
        differentiators: (r.key_differentiators ?? []).map((x) => x.trim()).filter(Boolean),
        includeCta: r.include_cta ?? true,
        characterLimit: limit,
        research: false,
      };
      break;
    }
    case 'ad_copy': {
      const fmt = r.ad_format ?? DEFAULT_AD_FORMAT;
      if (!(AD_FORMATS as readonly string[]).includes(fmt))
        throw new ValidationError([
          {
            location: 'body',
            path: at('ad_format'),
            kind: 'constraint',
            message: `ad_format must be one of ${AD_FORMATS.join(', ')}`,
            provided_value: fmt,
          },
        ]);
      brief = {
        ...base({ audience: r.target_audience }, { hashtags: 'never' }),
        kind,
        topic: r.product_service.trim(),
        objective: words(r.campaign_objective) || 'traffic',
        product: r.product_service.trim(),
        adFormat: fmt,
        budgetContext: words(r.budget_context),
        competitionLevel: words(r.competition_level) || 'medium',
        benefits: (r.key_benefits ?? []).map((x) => x.trim()).filter(Boolean),
        research: false,
      };
      break;
    }
  }
  return { brief, defaultsApplied: d.applied };
}

/** Where the research for a brief is looked up: its topic and the context that narrows it. */
export function researchQuery(b: WriterBrief): string {
  const extra =
    b.kind === 'event'
      ? [b.event.type, b.contentFocus]
      : b.kind === 'group_post'
        ? [b.valueProposition]
        : b.kind === 'post' || b.kind === 'article'
          ? [b.contentType === 'insight' || b.contentType === 'update' ? '' : b.contentType]
          : [];
  return [b.topic, b.industry, ...extra].filter(Boolean).join(' ');
}
