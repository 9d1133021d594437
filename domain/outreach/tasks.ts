/**
 * The outreach area's AI tasks (domain/ai/task.ts), each declared once: the vendor prompt, the offline writer's
 * task and the shape of a valid answer. Activities call them through the gateway's `run` and get typed answers.
 */
import { defineAiTask } from '../ai/task';
import { followUpPrompt, generatePrompt, personalizePrompt, subjectsPrompt } from './prompts';
import type { EmailDraft, FollowUpInput, GenerateEmailInput, PersonalizeInput, Tone } from './writer';

const draftSchema = {
  type: 'object',
  required: ['subject', 'body'],
  properties: { subject: { type: 'string', minLength: 1 }, body: { type: 'string', minLength: 1 } },
};

export const OUTREACH_EMAIL = defineAiTask<GenerateEmailInput, EmailDraft>({
  purpose: 'outreach.email.generate',
  answer: 'json',
  prompt: generatePrompt,
  local: (input) => ({ kind: 'outreach_email', input }),
  output: draftSchema,
  maxTokens: () => 900,
});

export const OUTREACH_PERSONALIZE = defineAiTask<PersonalizeInput, EmailDraft>({
  purpose: 'outreach.email.personalize',
  answer: 'json',
  prompt: personalizePrompt,
  local: (input) => ({ kind: 'outreach_personalize', input }),
  output: draftSchema,
  maxTokens: () => 900,
});

export const OUTREACH_FOLLOW_UP = defineAiTask<FollowUpInput, EmailDraft>({
  purpose: 'outreach.email.follow_up',
  answer: 'json',
  prompt: followUpPrompt,
  local: (input) => ({ kind: 'outreach_follow_up', input }),
  output: draftSchema,
  maxTokens: () => 900,
});

export const OUTREACH_SUBJECTS = defineAiTask<{ topic: string; tone: Tone }, { suggestions: string[] }>({
  purpose: 'outreach.email.subjects',
  answer: 'json',
  prompt: (i) => subjectsPrompt(i.topic, i.tone),
  local: (input) => ({ kind: 'outreach_subjects', input }),
  output: {
    type: 'object',
    required: ['suggestions'],
    properties: { suggestions: { type: 'array', items: { type: 'string' }, minItems: 1 } },
  },
  maxTokens: () => 300,
});
