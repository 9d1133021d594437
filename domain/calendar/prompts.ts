/**
 * The vendor prompt of a calendar post (pure). It asks for the JSON shape the
 * `local` provider returns (domain/generation/social.ts), so the activity
 * reads both answers the same way.
 */
import type { ChatTurn as ChatMessage } from '../ai/chat';
import type { SocialPostInput } from '../generation/calendar-post';

export function socialPostPrompt(p: SocialPostInput): ChatMessage[] {
  const thread = ['thread', 'social_thread', 'carousel', 'carousel_post'].includes(p.content_type);
  return [
    {
      role: 'system',
      content:
        'You write social media posts for a content calendar. State no statistics or facts you cannot source. Answer with one JSON object only, no prose.',
    },
    {
      role: 'user',
      content: [
        `Topic: ${p.topic}`,
        `Content type: ${p.content_type}`,
        `Platform kind: ${p.platform}`,
        `Tone: ${p.tone ?? 'neutral'}`,
        `Audience: ${p.audience ?? 'general'}`,
        `Length: about ${p.word_count ?? 60} words in total`,
        p.part
          ? `This is part ${p.part.index + 1} of ${p.part.total} of the series "${p.part.series_title}": give it its own angle.`
          : '',
        p.include_cta ? 'End with a call to action.' : 'No call to action.',
        p.include_hashtags === false ? 'No hashtags.' : 'Add 3-6 relevant hashtags.',
        `Return JSON {"title": string, "thread_content": string[] (${thread ? 'one entry per post of the thread' : 'one entry per paragraph'}), "hashtags": string[] (each starting with #)}.`,
      ]
        .filter(Boolean)
        .join('\n'),
    },
  ];
}
