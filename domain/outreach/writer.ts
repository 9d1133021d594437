/**
 * The offline outreach writer (what the `local` provider answers for the
 * outreach email tasks). It is not a language model: it fills fixed,
 * tone-specific templates with the request's own words and placeholders, and
 * says so (`method: "template"` in the route metadata). It never invents facts
 * about a lead: what it does not know stays a `{placeholder}` for
 * personalisation to fill. Deterministic: the same input gives the same text.
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

const PITCH: Record<Tone, string[]> = {
  professional: [
    'I have been reading {website} and would like to contribute an original article on {topic} for your readers. It would be written for your audience, with practical steps and sources, and I would follow your editorial guidelines.',
    'I am reaching out because {website} covers subjects close to {topic}. I would like to offer an original, well-sourced article on {topic} that your readers could put to use.',
  ],
  friendly: [
    'I have been enjoying {website} and had an idea your readers might like: a practical guest post on {topic}, written just for your site.',
    'I came across {website} and thought a hands-on piece about {topic} could be a good fit for your readers. Happy to shape it around what they care about.',
  ],
  casual: [
    'Quick one: would a guest post on {topic} work for {website}? I would write something original and practical for your readers.',
    'Saw {website} and wondered if you would be up for a guest article on {topic}. Original, useful, no fluff.',
  ],
  formal: [
    'I am writing to propose an original contribution to {website} on the subject of {topic}. The article would be prepared in accordance with your editorial standards and supported by cited sources.',
    'Please allow me to propose a guest article for {website} concerning {topic}. I would prepare it exclusively for your publication and observe your editorial guidelines.',
  ],
};
const ASK: Record<Tone, string> = {
  professional: 'Would you be open to a short outline? I can send two or three angles to choose from.',
  friendly: 'Would you like me to send over a couple of angles to pick from?',
  casual: 'Want me to send a few title ideas?',
  formal: 'Should this be of interest, I would be glad to submit an outline for your consideration.',
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
    ASK[tone],
    SIGN_OFF[tone],
  ].join('\n\n');
  return { subject, body };
}

function subjectTemplates(tone: Tone): string[] {
  const common = ['Guest post idea: {topic}', 'An article on {topic} for {website}', 'Contributing a piece on {topic}'];
  const byTone: Record<Tone, string[]> = {
    professional: ['Article proposal: {topic}', 'A {topic} guide for your readers'],
    friendly: ['An idea for your readers: {topic}', 'Would your readers like a piece on {topic}?'],
    casual: ['Quick idea: {topic}', '{topic} post for {website}?'],
    formal: ['Proposal for a contributed article on {topic}', 'Editorial contribution: {topic}'],
  };
  return [...byTone[tone], ...common];
}

/** Subject lines for `topic` (tone-specific first); `{website}` stays a placeholder. */
export function subjectSuggestions(topic: string, tone: Tone = 'professional'): string[] {
  const t = topicOf(topic);
  const cap = t.charAt(0).toUpperCase() + t.slice(1);
  return [...new Set(subjectTemplates(tone).map((s) => s.replace(/^\{topic\}/, cap).replace(/\{topic\}/g, t)))];
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
  professional:
    'I wanted to follow up on my note below{about}. I know inboxes get busy, so I am resending it in case it was missed.',
  friendly: 'Just bumping my note below{about} in case it got buried!',
  casual: 'Following up on this{about} - any interest?',
  formal: 'I am writing to follow up on my earlier message{about}, reproduced below for your convenience.',
};
const CLOSE: Record<Tone, string> = {
  professional: 'If it is not a fit, a quick reply saying so is perfectly fine and I will not follow up again.',
  friendly: 'No worries if it is not a fit - just let me know and I will not follow up again.',
  casual: 'If not, no problem - just say so.',
  formal: 'Should the proposal not be of interest, a brief reply would be appreciated and I shall not write again.',
};

/** `Re: <subject>` (never `Re: Re:`) and a short nudge above the quoted original. */
export function followUpEmail(input: FollowUpInput): EmailDraft {
  const tone = input.tone ?? 'professional';
  const subject = /^re:/i.test(input.original_subject.trim())
    ? input.original_subject.trim()
    : `Re: ${input.original_subject.trim()}`;
  const topic = /(?:on|about|concerning|regarding) ([^.,;!?\n]{3,60})/i.exec(input.original_body)?.[1];
  const about = topic ? ` about ${tidy(topic).replace(/^(the subject of )/i, '')}` : '';
  const greeting = input.original_body.trim().split('\n')[0];
  const quoted = input.original_body
    .trim()
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
  const opener = GENERIC_GREETING.test(greeting) || /^(hi|hey|dear|hello)\b/i.test(greeting) ? greeting : 'Hi,';
  const body = [opener, NUDGE[tone].replace('{about}', about), CLOSE[tone], SIGN_OFF[tone], quoted].join('\n\n');
  return { subject, body };
}

/** The host to mention for a website given as URL or host. */
export const siteName = hostOf;
