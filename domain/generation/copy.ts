/**
 * Short copy from a brief: social posts, hooks, headlines, subject lines and
 * captions. The template writer's version (deterministic, from the brief's
 * own words only) is what `local` answers and what the `llama` provider keeps
 * when its gate refuses the model's text; `shortCopyPrompt` asks a vendor for
 * the same JSON shape. Its sentences follow compose.ts: the topic and the
 * audience only after a preposition, the client's words as written, and every
 * sentence about the topic (the closing question names it: no "What has worked
 * for you?").
 */
import type { ChatTurn, CopyForm } from './model-plan';
import { audienceOf } from './phrases';
import { readBrief } from './compose';
import { questionSentence } from './social-compose';
import { capitalize, rotate, terminate, titleCase } from './text';
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

const LEADS = ['A few notes on {topic}{for}.', '{Topic}, in short.', 'Thinking about {topic}? Start here.'];
const HOOKS = [
  'A question{for}: what matters most about {topic}?',
  'Here is what matters most about {topic}.',
  'Are you giving enough attention to {topic}?',
];

/** The first candidate that fits whole, else the first cut at a word end. */
const wholeOrCut = (candidates: string[], max: number): string =>
  candidates.find((t) => charCount(t) <= max) ?? fit(candidates[0], max);

const topicOf = (c: ShortCopyInput) => c.topic.trim().replace(/[.!?]+$/, '');

function fill(template: string, c: ShortCopyInput): string {
  const topic = topicOf(c);
  // "for {audience}" only when given, and not after a topic with its own "for …".
  const forWho = c.audience?.trim() && !/\bfor\b/i.test(topic) ? ` for ${audienceOf(c.audience)}` : '';
  return template.replace('{Topic}', capitalize(topic)).replace('{topic}', topic).replace('{for}', forWho);
}

function compose(c: ShortCopyInput): string {
  const seed = `${c.form}|${c.topic}|${c.audience ?? ''}`;
  const points = (c.keyPoints ?? []).map((p) => terminate(capitalize(p.trim()))).filter((p) => p.length > 1);
  const facts = (c.facts ?? []).map((f) => terminate(f.trim()));
  const first = c.keyPoints?.[0]?.trim().replace(/[.!?]+$/, '');
  switch (c.form) {
    case 'social_post': {
      const closer = questionSentence(readBrief({ topic: topicOf(c) }), seed);
      // The seed's opening first, then the others: a shorter one may leave room for the points.
      for (const lead of rotate(LEADS, seed)) {
        const parts = [fill(lead, c), ...points, ...facts.slice(0, 1), closer];
        // Keep the closer when it fits: drop body sentences from the end first.
        for (let n = parts.length; n >= 2; n--) {
          const text = [...parts.slice(0, n - 1), parts[parts.length - 1]].join(' ');
          if (charCount(text) <= c.maxChars) return text;
        }
      }
      return wholeOrCut(
        rotate(LEADS, seed).map((l) => fill(l, c)),
        c.maxChars,
      );
    }
    case 'hook':
      return wholeOrCut(
        rotate(HOOKS, seed).map((h) => fill(h, c)),
        c.maxChars,
      );
    case 'headline': {
      const withPoint = first ? titleCase(`${c.topic.trim()}: ${first}`) : undefined;
      const withAudience =
        c.audience && !/\bfor\b/i.test(c.topic)
          ? titleCase(`${c.topic.trim()} for ${audienceOf(c.audience)}`)
          : undefined;
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
