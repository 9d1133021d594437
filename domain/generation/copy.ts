/**
 * Short copy from a brief: social posts, hooks, headlines, subject lines and
 * captions. The template writer's version (deterministic, from the brief's
 * own words only) is what `local` answers and what the `llama` provider keeps
 * when its gate refuses the model's text; `shortCopyPrompt` asks a vendor for
 * the same JSON shape.
 */
import type { ChatTurn, CopyForm } from './model-plan';
import { audienceOf } from './phrases';
import { capitalize, pick, terminate, titleCase } from './text';
import { trimAtSentence } from './quality-gate';

export interface ShortCopyInput {
  form: CopyForm;
  topic: string;
  audience?: string;
  tone?: string;
  /** Where it goes (`profnet`, `microblog`, `email`, ...). */
  platform?: string;
  keyPoints?: string[];
  /** Source sentences the copy may restate. */
  facts?: string[];
  /** Hard limit in characters (code points). */
  maxChars: number;
}

export interface ShortCopy {
  form: CopyForm;
  text: string;
}

export const charCount = (s: string): number => [...s].length;

/** The text cut at a word end within `max` characters (templates of one line). */
function fit(text: string, max: number): string {
  if (charCount(text) <= max) return text;
  const cut = [...text].slice(0, max).join('');
  return cut.slice(0, Math.max(cut.lastIndexOf(' '), 1)).replace(/[\s,;:–-]+$/, '');
}

const LEADS = ['A few notes on {topic} for {audience}.', '{Topic}, in short.', 'Thinking about {topic}? Start here.'];
const CLOSERS = ['What has worked for you?', 'How does your team handle it?', 'Worth a try this month.'];
const HOOKS = [
  'What should {audience} know about {topic}?',
  'Here is what matters most about {topic}.',
  'Is {topic} getting the attention it deserves?',
];

function fill(template: string, c: ShortCopyInput): string {
  return template
    .replace('{Topic}', capitalize(c.topic.trim()))
    .replace('{topic}', c.topic.trim())
    .replace('{audience}', audienceOf(c.audience));
}

function compose(c: ShortCopyInput): string {
  const seed = `${c.form}|${c.topic}|${c.audience ?? ''}`;
  const points = (c.keyPoints ?? []).map((p) => terminate(capitalize(p.trim()))).filter((p) => p.length > 1);
  const facts = (c.facts ?? []).map((f) => terminate(f.trim()));
  const first = c.keyPoints?.[0]?.trim().replace(/[.!?]+$/, '');
  switch (c.form) {
    case 'social_post': {
      const parts = [fill(pick(LEADS, seed), c), ...points, ...facts.slice(0, 1), pick(CLOSERS, seed)];
      // Keep the closer when it fits: drop body sentences from the end first.
      for (let n = parts.length; n >= 2; n--) {
        const text = [...parts.slice(0, n - 1), parts[parts.length - 1]].join(' ');
        if (charCount(text) <= c.maxChars) return text;
      }
      return trimAtSentence(parts.join(' '), c.maxChars) ?? fit(parts[0], c.maxChars);
    }
    case 'hook':
      return fit(fill(pick(HOOKS, seed), c), c.maxChars);
    case 'headline': {
      const withPoint = first ? titleCase(`${c.topic.trim()}: ${first}`) : undefined;
      const withAudience = c.audience ? titleCase(`${c.topic.trim()} for ${audienceOf(c.audience)}`) : undefined;
      return fit(
        [withPoint, withAudience].find((t) => t && charCount(t) <= c.maxChars) ?? titleCase(c.topic.trim()),
        c.maxChars,
      );
    }
    case 'subject_line': {
      const t = first ? `${capitalize(c.topic.trim())}: ${first}` : capitalize(c.topic.trim());
      return fit(charCount(t) <= c.maxChars ? t : capitalize(c.topic.trim()), c.maxChars);
    }
    case 'caption':
      return fit(terminate(first ? `${capitalize(first)}: ${c.topic.trim()}` : capitalize(c.topic.trim())), c.maxChars);
  }
}

export function writeShortCopy(c: ShortCopyInput): ShortCopy {
  return { form: c.form, text: compose(c) };
}

/** `text` within `max` characters: cut at its last sentence end that fits, else at a word end. */
export function fitToLimit(text: string, max: number): string {
  return trimAtSentence(text, max) ?? fit(text, max);
}

/** What a vendor is asked: the same brief, answered as JSON `{"text": "..."}`. */
export function shortCopyPrompt(c: ShortCopyInput): ChatTurn[] {
  const label = c.form.replace('_', ' ');
  const brief = [
    `Topic: ${c.topic}`,
    c.audience && `Audience: ${c.audience}`,
    c.tone && `Tone: ${c.tone}`,
    c.platform && `Platform: ${c.platform}`,
    c.keyPoints?.length && `Key points: ${c.keyPoints.join('; ')}`,
    c.facts?.length && `Facts you may use: ${c.facts.join(' ')}`,
  ].filter(Boolean);
  return [
    {
      role: 'system',
      content:
        'You write short marketing copy. Use only the facts given; never invent numbers, names or statistics. Answer with JSON only.',
    },
    {
      role: 'user',
      content: `Write one ${label} of at most ${c.maxChars} characters.\n${brief.join('\n')}\n\nAnswer as {"text": "..."}.`,
    },
  ];
}
