/**
 * The offline outreach writer (what the `local` provider answers for the
 * outreach email tasks). It is not a language model: it fills fixed,
 * tone-specific templates with the request's own words and placeholders, and
 * says so (`method: "template"` in the route metadata). It never invents facts
 * about a lead: what it does not know stays a `{placeholder}` for
 * personalisation to fill. Deterministic: the same input gives the same text.
 *
 * The rules of the offline writer's other areas hold here too (domain/generation/compose.ts): every sentence
 * of the body is about the pitch and names its topic (no stock lines such as "I know inboxes get busy"); the
 * topic only ever follows a preposition or a colon ("a guest post on {topic}"), never stands as the subject of
 * a template verb or as an adjective ("A {topic} guide"), and keeps the capitals the user gave it.
 *
 * Tones: `professional` (default), `friendly`, `casual`, `formal`.
 */
import { fillPlaceholders, hostOf, placeholdersIn, placeholderValues } from './placeholders';

export type Tone = 'professional' | 'friendly' | 'casual' | 'formal';
export const TONES: Tone[] = ['professional', 'friendly', 'casual', 'formal'];

export interface EmailDraft {
  subject: string;
  body: string;
}

export interface GenerateEmailInput {
  topic: string;
  tone?: Tone;
  /** A saved template: its subject and body are the starting point. */
  template?: EmailDraft;
}

export interface PersonalizeInput {
  base_email: string;
  lead_name?: string;
  lead_website?: string;
  content_topic?: string;
}

export interface FollowUpInput {
  original_subject: string;
  original_body: string;
  tone?: Tone;
}

const tidy = (s: string) => s.replace(/\s+/g, ' ').trim();
const topicOf = (t: string) => tidy(t).replace(/[.!?]+$/, '');

/** Picks one of `options` by a hash of `seed`, so the same input always gets the same choice. */
function pick<T>(options: T[], seed: string): T {
  let h = 2166136261;
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return options[h % options.length];
}

const GREETING: Record<Tone, string> = {
  professional: 'Hi {first_name},',
  friendly: 'Hey {first_name},',
  casual: 'Hi {first_name}!',
  formal: 'Dear {lead_name},',
};
const SIGN_OFF: Record<Tone, string> = {
  professional: 'Best regards,\n{sender_name}',
  friendly: 'Cheers,\n{sender_name}',
  casual: 'Thanks!\n{sender_name}',
  formal: 'Kind regards,\n{sender_name}',
};

/** The pitch: one sentence naming the site and the topic (after a preposition), then the ask, naming it again. */
const PITCH: Record<Tone, string[]> = {
  professional: [
    'I have been reading {website} and would like to contribute an original, well-sourced article on {topic} for your readers, written to your editorial guidelines.',
    'I am reaching out because {website} covers subjects close to {topic}, and I would like to offer your readers an original, practical article on it.',
  ],
  friendly: [
    'I have been enjoying {website} and had an idea your readers might like: a practical guest post on {topic}, written just for your site.',
    'I came across {website} and thought a hands-on piece about {topic} could be a good fit for your readers, shaped around what they care about.',
  ],
  casual: [
    'Quick one: would a guest post on {topic} work for {website}?',
    'Saw {website} and wondered if you would be up for a guest article on {topic}: original, useful, no fluff.',
  ],
  formal: [
    'I am writing to propose an original contribution to {website} on the subject of {topic}, prepared in accordance with your editorial standards and supported by cited sources.',
    'Please allow me to propose a guest article for {website} concerning {topic}, which I would prepare exclusively for your publication.',
  ],
};
const ASK: Record<Tone, string> = {
  professional:
    'Would you be open to a short outline of the article on {topic}, with two or three angles to choose from?',
  friendly: 'Would you like me to send over a couple of angles on {topic} to pick from?',
  casual: 'Happy to send a few title ideas on {topic} first if that helps.',
  formal: 'Should an article on {topic} be of interest, I would be glad to submit an outline for your consideration.',
};

/** A first outreach email about `topic`, or the template filled with the topic. Lead details stay placeholders. */
export function generateEmail(input: GenerateEmailInput): EmailDraft {
  const topic = topicOf(input.topic);
  if (input.template)
    return {
      subject: fillPlaceholders(input.template.subject, { topic, content_topic: topic }),
      body: fillPlaceholders(input.template.body, { topic, content_topic: topic }),
    };
  const tone = input.tone ?? 'professional';
  const subject = pick(subjectTemplates(tone), `${tone}|${topic}|subject`).replace(/\{topic\}/g, topic);
  const body = [
    GREETING[tone],
    pick(PITCH[tone], `${tone}|${topic}`).replace(/\{topic\}/g, topic),
    ASK[tone].replace(/\{topic\}/g, topic),
    SIGN_OFF[tone],
  ].join('\n\n');
  return { subject, body };
}

/** Subject lines: the topic after a preposition or a colon only (never "A {topic} guide"). */
function subjectTemplates(tone: Tone): string[] {
  const common = ['Guest post idea: {topic}', 'An article on {topic} for {website}', 'Contributing a piece on {topic}'];
  const byTone: Record<Tone, string[]> = {
    professional: ['Article proposal: {topic}', 'A guide to {topic} for your readers'],
    friendly: ['An idea for your readers: {topic}', 'Would your readers like a piece on {topic}?'],
    casual: ['Quick idea: {topic}', 'A post on {topic} for {website}?'],
    formal: ['Proposal for a contributed article on {topic}', 'Editorial contribution: {topic}'],
  };
  return [...byTone[tone], ...common];
}

/** Subject lines for `topic` (tone-specific first); `{website}` stays a placeholder. */
export function subjectSuggestions(topic: string, tone: Tone = 'professional'): string[] {
  const t = topicOf(topic);
  return [...new Set(subjectTemplates(tone).map((s) => s.replace(/\{topic\}/g, t)))];
}

const GENERIC_GREETING = /^(hi|hello|hey|dear)( there| sir or madam| team| editor| webmaster)?[,!]?\s*$/i;

/**
 * Fills the email's placeholders from the lead and adapts it: a generic greeting becomes a named one, and a
 * line naming the lead's site is added when the email does not mention it. A first line `Subject: ...` is
 * taken as the subject; otherwise one is made from the topic (or the site).
 */
export function personalizeEmail(input: PersonalizeInput): EmailDraft & { unfilled: string[] } {
  const values = placeholderValues(input);
  let text = input.base_email.replace(/\r\n/g, '\n').trim();
  let subject = '';
  const m = /^subject:\s*(.+)\n+/i.exec(text);
  if (m) {
    subject = m[1].trim();
    text = text.slice(m[0].length);
  }
  const lines = text.split('\n');
  if (values.first_name && lines.length && GENERIC_GREETING.test(lines[0].trim()))
    lines[0] = /^dear/i.test(lines[0]) ? `Dear ${values.lead_name},` : `Hi ${values.first_name},`;
  text = lines.join('\n');
  const site = values.website;
  const mentionsSite = site && (text.includes('{website}') || text.toLowerCase().includes(site));
  if (site && !mentionsSite) {
    const line = values.topic
      ? `I came across ${site} while looking for sites that write about ${values.topic}.`
      : `I came across ${site} recently.`;
    const paras = text.split(/\n\s*\n/);
    const greetingFirst = paras.length > 1 && paras[0].split('\n').length === 1 && paras[0].length < 60;
    paras.splice(greetingFirst ? 1 : 0, 0, line);
    text = paras.join('\n\n');
  }
  if (!subject)
    subject = values.topic
      ? `An article idea on ${values.topic}${site ? ` for ${site}` : ''}`
      : `A note for ${site ?? 'you'}`;
  const body = fillPlaceholders(text, values);
  subject = fillPlaceholders(subject, values);
  return { subject, body, unfilled: placeholdersIn(`${subject}\n${body}`) };
}

const NUDGE: Record<Tone, string> = {
  professional: 'I wanted to follow up on my note below{about}, in case it was buried in a busy inbox.',
  friendly: 'Just bumping my note below{about} in case it got buried!',
  casual: 'Following up on this{about} - any interest?',
  formal: 'I am writing to follow up on my earlier message{about}, reproduced below for your convenience.',
};
/** The close: `{piece}` is "an article on <topic>" when the topic is known, else the tone's own words. */
const CLOSE: Record<Tone, string> = {
  professional: 'If {piece} is not a fit, a quick reply saying so is perfectly fine and I will not follow up again.',
  friendly: 'No worries if {piece} is not a fit - just let me know and I will not follow up again.',
  casual: 'If {piece} is not for you, no problem - just say so.',
  formal: 'Should {piece} not be of interest, a brief reply would be appreciated and I shall not write again.',
};
const PIECE: Record<Tone, string> = {
  professional: 'it',
  friendly: 'it',
  casual: 'it',
  formal: 'the proposal',
};

/**
 * The topic of an earlier email: what its subject (else its body) offers a piece "on", "about", "concerning" or
 * "regarding" (or "on the subject of", or after a subject's "Guest post idea:"), up to the end of the phrase: a
 * trailing "for your readers" or "for {website}" and what follows a verb are left out.
 */
export function topicOfEmail(subject: string, body: string): string | undefined {
  const PIECE_WORDS = '(?:article|post|piece|guide|contribution|idea|proposal|guest post|guest article)';
  const patterns = [
    new RegExp(
      `\\b${PIECE_WORDS}\\s+(?:on|about|concerning|regarding)\\s+(?:the subject of\\s+)?([^.,;:!?\\n]{3,80})`,
      'i',
    ),
    /^(?:re:\s*)*(?:guest post idea|article proposal|quick idea|editorial contribution|an idea for your readers):\s*([^.;!?\n]{3,80})/i,
    /\b(?:on the subject of|concerning|regarding|about|on)\s+([^.,;:!?\n]{3,60})/i,
  ];
  for (const text of [subject, body])
    for (const re of patterns) {
      const m = re.exec(text.trim());
      if (!m) continue;
      const t = tidy(m[1])
        .replace(/\s+(?:for|to|with)\s+(?:your|our|the|\{)[^]*$/i, '')
        .replace(/\s+(?:that|which|and|but|so|could|would|will|might|should|can|be|is|are|work|works)\b[^]*$/i, '')
        .trim();
      if (/\p{L}{3}/u.test(t) && !/^(it|this|that|them)$/i.test(t)) return t;
    }
  return undefined;
}

/** `Re: <subject>` (never `Re: Re:`) and a short nudge above the quoted original, naming its topic when it has one. */
export function followUpEmail(input: FollowUpInput): EmailDraft {
  const tone = input.tone ?? 'professional';
  const subject = /^re:/i.test(input.original_subject.trim())
    ? input.original_subject.trim()
    : `Re: ${input.original_subject.trim()}`;
  const topic = topicOfEmail(input.original_subject, input.original_body);
  const about = topic ? ` about ${topic}` : '';
  const piece = topic ? `an article on ${topic}` : PIECE[tone];
  const greeting = input.original_body.trim().split('\n')[0];
  const quoted = input.original_body
    .trim()
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
  const opener = GENERIC_GREETING.test(greeting) || /^(hi|hey|dear|hello)\b/i.test(greeting) ? greeting : 'Hi,';
  const close = CLOSE[tone].replace('{piece}', piece);
  const body = [opener, NUDGE[tone].replace('{about}', about), close, SIGN_OFF[tone], quoted].join('\n\n');
  return { subject, body };
}

/** The host to mention for a website given as URL or host. */
export const siteName = hostOf;
