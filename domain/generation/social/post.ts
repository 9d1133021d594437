/**
 * Offline posts and group posts: a hook framed from the topic (and the
 * audience), a body of the best source sentences until the format's best
 * length is reached, an optional question, poll and call to action, and
 * hashtags from the topic and the sources' shared phrases.
 */
import type { GroupPostDraft, PostDraft } from '../../writers/drafts';
import { formatLimits } from '../../writers/platforms';
import type { GroupPostBrief, PostBrief } from '../../writers/types';
import { charCount } from '../../writers/text-limits';
import { emoji, Evidence, frame, hashtagsFor, Kit, slotsOf } from './kit';

const HOOKS: Record<string, string[]> = {
  list: [
    '{N} things {audience} should know about {topic}.',
    '{N} takeaways on {topic} worth saving.',
    'What the research says about {topic}, in {N} points.',
  ],
  question: [
    'What does good {topic} look like for {audience}?',
    'Is {topic} getting the attention it deserves?',
    'Where should {audience} start with {topic}?',
  ],
  statement: [
    '{Topic} rewards the teams that treat it as a habit.',
    'A few notes on {topic} for {audience}.',
    "Here's what stood out to me about {topic}.",
  ],
};

const QUESTIONS = {
  list: ['Which of these would you try first?', 'What would you add to this list?'],
  other: ['What has worked for you with {topic}?', 'How does your team approach {topic}?'],
};

const CTAS: Record<'profnet' | 'socialnet', string[]> = {
  profnet: [
    'Share your experience in the comments, and follow for more on {topic}.',
    'Repost this if it helps your network, and follow for more on {topic}.',
    'Save this post and send it to a colleague who works on {topic}.',
  ],
  socialnet: [
    'Tell us in the comments below!',
    'Share this with a friend who needs it today.',
    'Save this post for later and follow for more.',
  ],
};

/** Body sentences until the piece reaches `target` characters (at least one when there is evidence). */
function fill(k: Kit, query: string, target: number, fixed: number): Evidence[] {
  const out: Evidence[] = [];
  let size = fixed;
  for (const e of k.evidence(query, 8, k.brief.platform === 'socialnet' ? 28 : 36)) {
    if (out.length > 0 && size + charCount(e.text) + 2 > target) break;
    out.push(e);
    size += charCount(e.text) + 2;
  }
  return out;
}

export function writePost(k: Kit, b: PostBrief): PostDraft {
  const l = formatLimits(b.platform, 'post');
  const target = Math.min(b.maxCharacters, l.optimal_characters[1]) * 0.85;
  const listy = /tip|list|how|step|lesson|takeaway|guide|checklist/i.test(b.contentType);
  const cta = b.cta ? `${emoji(k, 'cta')} ${frame(k.pick(CTAS[b.platform], 'cta'), slotsOf(k))}`.trim() : undefined;
  const fixed = 120 + 60 + charCount(cta ?? '');
  const body = fill(k, `${b.topic} ${b.industry} ${b.contentType}`, target, fixed);
  const asList = listy && body.length >= 2;
  const question = b.question ? frame(k.pick(QUESTIONS[asList ? 'list' : 'other'], 'q'), slotsOf(k)) : undefined;
  const hookKind = asList ? 'list' : b.question ? 'statement' : 'question';
  const hook =
    `${emoji(k, 'lead')} ${frame(k.pick(HOOKS[hookKind], 'hook'), slotsOf(k, { n: String(body.length) }))}`.trim();
  const bodyText = body.length
    ? asList
      ? body.map((e) => `${emoji(k, 'point')} ${e.text}`).join('\n')
      : body.map((e) => e.text).join(' ')
    : frame('This post looks at {topic} from the point of view of {audience}.', slotsOf(k));
  const pollOptions = k.phrases.filter((p) => charCount(p) <= 30).slice(0, 3);
  return {
    hook,
    body: bodyText,
    ...(question ? { question } : {}),
    ...(b.poll && pollOptions.length >= 2
      ? {
          poll: {
            question: frame('Which matters most for {topic}?', slotsOf(k)),
            options: pollOptions.map((p) => p[0].toUpperCase() + p.slice(1)),
          },
        }
      : {}),
    ...(cta ? { call_to_action: cta } : {}),
    hashtags: hashtagsFor(k),
    ...(b.image.requested
      ? {
          image_prompt: `${b.image.style ?? 'clean editorial'} image about ${k.topic}${b.audience ? ` for ${b.audience}` : ''}${b.brand.colors.length ? `, brand colours ${b.brand.colors.join(', ')}` : ''}`,
        }
      : {}),
  };
}

const GROUP_OPENINGS = [
  'Hi everyone, a question for this {group} about {topic}.',
  'Something I have been thinking about that fits this {group}: {topic}.',
  'Hello all, sharing a few notes on {topic} for this {group}.',
];

export function writeGroupPost(k: Kit, b: GroupPostBrief): GroupPostDraft {
  const group = b.group.type ? `${b.group.type} group` : 'group';
  const evidence = k.evidence(`${b.topic} ${b.valueProposition} ${b.contentType}`, 3, 30);
  const value = b.valueProposition ? `${b.valueProposition.replace(/[.!?]+$/, '')}.` : '';
  const body = [value, ...evidence.map((e) => e.text)].filter(Boolean).join(' ');
  const asks: Record<string, string> = {
    discussion: 'What is your experience with {topic}?',
    feedback: 'What would you change about this approach to {topic}?',
    advice: 'What advice would you give someone starting with {topic}?',
  };
  const goal = Object.keys(asks).find((g) => b.goal.toLowerCase().includes(g)) ?? 'discussion';
  // Small or quiet groups get a lower-effort ask; large active groups a direct one.
  const quiet = /low|quiet|new|small/i.test(`${b.group.engagementLevel ?? ''} ${b.group.size ?? ''}`);
  return {
    opening: frame(k.pick(GROUP_OPENINGS, 'open'), slotsOf(k, { group })),
    body: body || frame('I would like to hear how members approach {topic}.', slotsOf(k)),
    discussion_question: frame(asks[goal], slotsOf(k)),
    call_to_action: quiet
      ? 'Even a one-line reply helps.'
      : 'Reply below and I will gather the answers in a follow-up post.',
    hashtags: hashtagsFor(k),
  };
}
