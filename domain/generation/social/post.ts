/**
 * Offline posts and group posts: an opening line naming the topic (and the
 * audience), a body of the source sentences about the topic until the
 * format's best length is reached (none when no source is about it: the post
 * is then shorter, never padded), an optional question, poll and call to
 * action that name the topic, and hashtags of whole phrases (kit.ts).
 */
import type { GroupPostDraft, PostDraft } from '../../writers/drafts';
import { formatLimits } from '../../writers/platforms';
import type { GroupPostBrief, PostBrief } from '../../writers/types';
import { charCount } from '../../writers/text-limits';
import { callToAction, hookSentence, questionSentence, topicPhrase } from '../social-compose';
import { emoji, Evidence, frame, hashtagsFor, Kit, slotsOf } from './kit';

/** Openings of a list post: the topic after "on"/"about", the count of the points that follow. */
const LIST_HOOKS = [
  '{N} points on {topic}{for}.',
  '{N} takeaways on {topic} worth saving.',
  'What the research says about {topic}, in {N} points.',
];

/**
 * Body sentences until the piece reaches `target` characters or `most` sentences (at least one when there is
 * evidence): a post makes a few points well; a list may make more.
 */
function fill(k: Kit, query: string, target: number, fixed: number, most: number): Evidence[] {
  const out: Evidence[] = [];
  let size = fixed;
  for (const e of k.evidence(query, most, k.brief.platform === 'socialnet' ? 28 : 36)) {
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
  const body = fill(k, `${b.topic} ${b.industry} ${b.contentType}`, target, 120 + 60 + 80, listy ? 5 : 3);
  const asList = listy && body.length >= 2;
  const question = b.question ? questionSentence(k.b, k.seed, asList) : undefined;
  const call = b.cta ? callToAction({ ...k.b, cta: true }, k.seed, { afterQuestion: Boolean(question) }) : undefined;
  const cta = call ? `${emoji(k, 'cta')} ${call}`.trim() : undefined;
  const opening = asList
    ? frame(
        k.pick(LIST_HOOKS, 'hook'),
        // A topic with its own "for …" reads badly with a second one.
        slotsOf(k, {
          n: String(body.length),
          for: k.b.audience && !/\bfor\b/i.test(k.topic) ? ` for ${k.b.audience}` : '',
        }),
      )
    : hookSentence(k.b, k.seed);
  const hook = `${emoji(k, 'lead')} ${opening}`.trim();
  const bodyText = asList
    ? body.map((e) => `${emoji(k, 'point')} ${e.text}`).join('\n')
    : body.map((e) => e.text).join(' ');
  // A poll between the sources' phrases about the topic, or (without two of them) a yes/no poll on the topic:
  // never options the sources do not give.
  const pollOptions = k.phrases.filter((p) => charCount(p) <= 30).slice(0, 3);
  const poll =
    pollOptions.length >= 2
      ? {
          question: `Which matters most to you about ${topicPhrase(k.b)}?`,
          options: pollOptions.map((p) => p[0].toUpperCase() + p.slice(1)),
        }
      : { question: `Is ${topicPhrase(k.b)} on your list this month?`, options: ['Yes', 'Not yet'] };
  return {
    hook,
    body: bodyText,
    ...(question ? { question } : {}),
    ...(b.poll ? { poll } : {}),
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
  const ref = topicPhrase(k.b);
  const evidence = k.evidence(`${b.topic} ${b.valueProposition} ${b.contentType}`, 3, 30);
  const value = b.valueProposition ? `${b.valueProposition.replace(/[.!?]+$/, '')}.` : '';
  const body = [value, ...evidence.map((e) => e.text)].filter(Boolean).join(' ');
  const asks: Record<string, string> = {
    discussion: 'What has your experience been with {ref}?',
    feedback: 'What would you do differently about {ref}?',
    advice: 'What advice would you give a newcomer about {ref}?',
  };
  const goal = Object.keys(asks).find((g) => b.goal.toLowerCase().includes(g)) ?? 'discussion';
  // "experience with when to post" does not read: a wh-clause topic only follows "about".
  const ask =
    /^(?:when|how|what|why|where|which|who)\b/i.test(ref) && goal === 'discussion' ? asks.feedback : asks[goal];
  // Small or quiet groups get a lower-effort ask; large active groups a direct one.
  const quiet = /low|quiet|new|small/i.test(`${b.group.engagementLevel ?? ''} ${b.group.size ?? ''}`);
  return {
    opening: frame(k.pick(GROUP_OPENINGS, 'open'), slotsOf(k, { group })),
    body: body || frame('I would like to hear from members about {topic}.', slotsOf(k)),
    discussion_question: ask.replace('{ref}', ref),
    call_to_action: quiet
      ? `Even a one-line reply about ${ref} helps.`
      : `Reply below and I will gather the answers on ${ref} in a follow-up post.`,
    hashtags: hashtagsFor(k),
  };
}
