/**
 * Vendor prompts of the writers (pure): one system message that fixes the
 * role and the answer format (one JSON object of the kind's draft shape,
 * domain/writers/drafts.ts), one user message with the brief, its limits
 * and the numbered research sources. The finishing rules hold the answer to
 * the limits anyway; the prompt states them so a vendor rarely needs it.
 */
import { numberedSources, type ChatTurn as ChatMessage } from '../ai/chat';
import { AD_FORMAT_LIMITS, AdFormat } from './ad-formats';
import { formatLimits } from './platforms';
import type { Source, WriterBrief } from './types';

const PLATFORM_NAME = { profnet: 'a professional network', socialnet: 'a general social network' } as const;

const sourceList = (sources: Source[]) =>
  numberedSources(sources, '(none: write only what the brief itself supports; state no statistics)');

const SCENE = '{duration_seconds: integer, narration: string, visual: string, on_screen_text: string}';

/** The JSON the vendor must answer with, per kind. */
function shape(b: WriterBrief): string {
  switch (b.kind) {
    case 'post':
      return `{hook: string (first line), body: string, question?: string, poll?: {question: string, options: string[2..4]}, call_to_action?: string, hashtags: string[], image_prompt?: string}`;
    case 'article':
      return `{title: string, sections: [{heading: string, body: string (Markdown; cite sources as [n])}], hashtags: string[]}`;
    case 'video_post':
      return `{title: string, hook: string, scenes: [${SCENE}], caption: string, hashtags: string[], voice_notes: string, branding_notes: string}`;
    case 'reel':
      return `{hook: string, scenes: [${SCENE}], caption: string, hashtags: string[], music_notes: string}`;
    case 'carousel':
      return `{slides: [{kind: "cover"|"content"|"cta", title: string, body: string, visual_notes: string}], caption: string, hashtags: string[]}`;
    case 'story':
      return `{frames: [{duration_seconds: integer, text: string, visual_notes: string, interactive_element?: {type: string, prompt: string, options?: string[]}}], call_to_action: string}`;
    case 'event':
      return `{title: string, description: string, highlights: string[], urgency_line?: string, social_proof?: string, announcement_post: string, reminder_post: string, follow_up_posts: string[], hashtags: string[]}`;
    case 'group_post':
      return `{title?: string, opening: string, body: string, discussion_question: string, call_to_action?: string, hashtags: string[]}`;
    case 'page_about':
      return `{text: string}`;
    case 'ad_copy':
      return `{variants: [{angle: string, primary_text: string, headline: string, description?: string, call_to_action: string}]}`;
  }
}

/** The brief's own fields, one per line (only those given). */
function details(b: WriterBrief): string[] {
  const lines: Array<[string, unknown]> = [
    ['Topic', b.topic],
    ['Tone', b.tone],
    ['Audience', b.audience],
    ['Industry', b.industry],
    ['Brand voice', b.brand.voice],
    ['Brand colours', b.brand.colors.join(', ')],
  ];
  switch (b.kind) {
    case 'post':
      lines.push(
        ['Content type', b.contentType],
        ['Ask one question', b.question],
        ['Add a poll', b.poll],
        ['End with a call to action', b.cta],
        ['Algorithm focus', b.algorithmFocus],
        ['Posting strategy', b.postingStrategy],
        ['Image wanted', b.image.requested ? `yes, style ${b.image.style ?? 'any'}: give image_prompt` : 'no'],
      );
      break;
    case 'article':
      lines.push(['Content type', b.contentType], ['Body words', b.targetWords]);
      break;
    case 'video_post':
      lines.push(
        ['Total duration', `${b.durationSeconds} seconds (scene durations must sum to exactly this)`],
        ['Style', b.style],
        ['Aspect ratio', b.aspectRatio],
        ['Voice', [b.voice.type, b.voice.speed, b.voice.emphasis].filter(Boolean).join(', ')],
        ['Background music', b.backgroundMusic],
        ['Avatar', b.avatar.include ? `yes${b.avatar.style ? `, ${b.avatar.style}` : ''}` : 'no'],
        ['Logo', b.includeLogo],
        ['End-screen call to action', b.endScreenCta],
        ['Script to split over the scenes (keep its words)', b.script],
      );
      break;
    case 'reel':
      lines.push(
        ['Total duration', `${b.durationSeconds} seconds (scene durations must sum to exactly this)`],
        ['Style', b.style],
        ['Hook strength', b.hookStrength],
        ['Teaching method', b.teachingMethod],
        ['Music mood', b.musicMood],
        ['End-screen call to action', b.endScreenCta],
      );
      break;
    case 'carousel':
      lines.push(
        ['Slides', `${b.slides} in all: one cover, ${b.slides - 2} content, one call to action`],
        ['Style', b.style],
        ['Cover', JSON.stringify(b.cover)],
        ['Content slides', JSON.stringify(b.contentSlides)],
        ['Call-to-action slide', JSON.stringify(b.cta)],
        ['Story arc', b.storyArc],
      );
      break;
    case 'story':
      lines.push(
        ['Story type', b.storyType],
        ['Total duration', `${b.durationSeconds} seconds (frame durations must sum to exactly this)`],
        ['Visual style', b.visualStyle],
        ['Brand integration', b.brandIntegration],
        ['Call to action', b.callToAction],
        ['Interactive elements', b.interactiveElements.join(', ')],
      );
      break;
    case 'event':
      lines.push(
        ['Event', JSON.stringify(b.event)],
        ['Content focus', b.contentFocus],
        ['Urgency', b.urgency],
        ['Social proof', b.socialProof ? 'yes, without invented numbers' : 'no'],
        ['Follow-up posts', b.followUp],
      );
      break;
    case 'group_post':
      lines.push(
        ['Group', JSON.stringify(b.group)],
        ['Content type', b.contentType],
        ['Engagement goal', b.goal],
        ['Value proposition', b.valueProposition],
      );
      break;
    case 'page_about':
      lines.push(
        ['Business type', b.businessType],
        ['Differentiators', b.differentiators.join('; ')],
        ['Include a call to action', b.includeCta],
        ['At most characters', b.characterLimit],
      );
      break;
    case 'ad_copy': {
      const l = AD_FORMAT_LIMITS[b.adFormat as AdFormat];
      lines.push(
        ['Product or service', b.product],
        ['Campaign objective', b.objective],
        ['Ad format', b.adFormat],
        ['Key benefits', b.benefits.join('; ')],
        ['Budget context', b.budgetContext],
        ['Competition level', b.competitionLevel],
        [
          'Field limits (characters)',
          `primary_text ${l.primary_text}, headline ${l.headline}, description ${l.description || 'none'}; ${l.variants} variants with different angles`,
        ],
      );
      break;
    }
  }
  return lines
    .filter(([, v]) => v !== undefined && v !== '' && v !== null)
    .map(([k, v]) => `${k}: ${typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v)}`);
}

export function writerPrompt(b: WriterBrief, sources: Source[]): ChatMessage[] {
  const l = formatLimits(b.platform, b.kind);
  const rules = [
    `Main text at most ${b.maxCharacters} characters`,
    b.includeHashtags ? `at most ${l.max_hashtags} hashtags` : 'no hashtags',
    b.includeEmoji ? `at most ${l.max_emoji} emoji` : 'no emoji',
    `at most ${l.max_line_breaks} line breaks`,
  ];
  return [
    {
      role: 'system',
      content: `You write ${b.kind.replace('_', ' ')} content for ${PLATFORM_NAME[b.platform]}. Use only facts from the numbered sources; never invent statistics, customers or quotes. Answer with one JSON object only, no prose, of the shape ${shape(b)}.`,
    },
    {
      role: 'user',
      content: `${details(b).join('\n')}\nLimits: ${rules.join('; ')}.\n\nSources:\n${sourceList(sources)}`,
    },
  ];
}
