/**
 * Prompts of the in-process model, as chat turns. A model of 135M parameters
 * follows an example far better than an instruction (measured: without one it
 * answers "Here's a rewritten version ..." or invents statistics), so every
 * prompt is a system line, one worked example and the task. The examples are
 * about other subjects than any request, so their facts cannot leak in.
 *
 * A call's turns before the task are identical for every piece of one field,
 * which lets the model reuse their evaluation (only the task is new).
 */
import type { ChatTurn, CopyForm, ModelBrief } from './model-plan';
import { toneFamily } from './phrases';

export type { ChatTurn };

const TONE_WORDS: Record<string, string> = {
  formal: 'clear, formal',
  friendly: 'plain, friendly',
  persuasive: 'confident, persuasive',
  neutral: 'plain, natural',
};

/** Turns that ask for one sentence rephrased; the task is the sentence itself. */
export function rewriteTurns(sentence: string, tone?: string): ChatTurn[] {
  const style = TONE_WORDS[toneFamily(tone)] ?? TONE_WORDS.neutral;
  return [
    {
      role: 'system',
      content: `You rewrite one sentence at a time in ${style} English. You keep the meaning, every number and every name. You answer with the rewritten sentence only.`,
    },
    { role: 'user', content: 'Teams that publish on a fixed schedule see 30% more returning visitors.' },
    { role: 'assistant', content: 'Publishing on a fixed schedule brings teams 30% more returning visitors.' },
    { role: 'user', content: 'Try one small change this week and see what happens.' },
    { role: 'assistant', content: 'Make one small change this week and watch what happens.' },
    { role: 'user', content: sentence },
  ];
}

const FORM_LABEL: Record<CopyForm, string> = {
  social_post: 'social post',
  hook: 'opening sentence',
  headline: 'headline',
  subject_line: 'email subject line',
  caption: 'image caption',
};

const EXAMPLE_BRIEF: ModelBrief = {
  topic: 'email newsletters',
  audience: 'freelancers',
  keyPoints: ['send on a fixed day', 'keep one main idea per issue'],
};

const EXAMPLES: Record<CopyForm, { maxChars: number; answer: string }> = {
  social_post: {
    maxChars: 200,
    answer:
      'Freelancers: pick one day a week for your newsletter and stick to it. Keep each issue to one main idea, and your readers will know what to expect.',
  },
  hook: { maxChars: 120, answer: 'What if your newsletter needed just one idea and one fixed day a week?' },
  headline: { maxChars: 70, answer: 'One Idea, One Day: Email Newsletters Freelancers Can Keep Up' },
  subject_line: { maxChars: 60, answer: 'One idea a week: a newsletter habit that sticks' },
  caption: { maxChars: 150, answer: 'One day a week, one idea per issue: the newsletter habit that sticks.' },
};

const list = (items?: string[]): string | undefined =>
  items?.length ? items.map((s) => s.trim().replace(/[.;]+$/, '')).join('; ') : undefined;

/** The brief as labelled lines (the layout the example teaches). */
export function briefText(form: CopyForm, maxChars: number | undefined, b: ModelBrief): string {
  const lines = [
    `Write a${/^[aeiou]/.test(FORM_LABEL[form]) ? 'n' : ''} ${FORM_LABEL[form]}${maxChars ? ` of at most ${maxChars} characters` : ''}${b.platform ? ` for ${b.platform}` : ''}.`,
    '',
    `Topic: ${b.topic}`,
    b.audience ? `Audience: ${b.audience}` : undefined,
    b.tone ? `Tone: ${b.tone}` : undefined,
    list(b.keyPoints) ? `Key points: ${list(b.keyPoints)}` : undefined,
    list(b.facts) ? `Facts: ${list(b.facts)}` : undefined,
  ];
  return lines.filter((l) => l !== undefined).join('\n');
}

/** Turns that ask for one piece of short copy from a brief. */
export function copyTurns(form: CopyForm, maxChars: number | undefined, brief: ModelBrief): ChatTurn[] {
  const ex = EXAMPLES[form];
  return [
    {
      role: 'system',
      content: `You write short marketing copy. You use only the facts in the brief and never invent numbers, names or statistics. You answer with the ${FORM_LABEL[form]} only.`,
    },
    { role: 'user', content: briefText(form, ex.maxChars, EXAMPLE_BRIEF) },
    { role: 'assistant', content: ex.answer },
    { role: 'user', content: briefText(form, maxChars, brief) },
  ];
}
