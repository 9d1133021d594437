/**
 * Prompts for a text vendor, asking for the same JSON the offline writer
 * returns (domain/outreach/writer.ts), so both answers are parsed alike.
 */
import type { ChatMessageLike } from './types';
import type { FollowUpInput, GenerateEmailInput, PersonalizeInput, Tone } from './writer';

const SYSTEM =
  'You write short, honest backlink outreach emails (guest post pitches). Never invent facts about the recipient or their site. Keep {placeholders} such as {first_name}, {website} and {sender_name} exactly as written where you do not know the value. Answer with JSON only.';

const sys = (): ChatMessageLike => ({ role: 'system', content: SYSTEM });

export function generatePrompt(i: GenerateEmailInput): ChatMessageLike[] {
  return [
    sys(),
    {
      role: 'user',
      content: `Write a first outreach email proposing a guest article on "${i.topic}" in a ${i.tone ?? 'professional'} tone. Address the recipient as {first_name}, refer to their site as {website}, sign as {sender_name}. ${
        i.template
          ? `Start from this template (keep its placeholders):\nSubject: ${i.template.subject}\n${i.template.body}\n`
          : ''
      }Return {"subject": string, "body": string}.`,
    },
  ];
}

export function personalizePrompt(i: PersonalizeInput): ChatMessageLike[] {
  return [
    sys(),
    {
      role: 'user',
      content: `Personalise this outreach email for the lead. Fill placeholders you have values for, greet the lead by name, and mention their site naturally; do not add claims about them.\nLead name: ${i.lead_name ?? '(unknown)'}\nLead website: ${i.lead_website ?? '(unknown)'}\nContent topic: ${i.content_topic ?? '(unknown)'}\nEmail:\n${i.base_email}\nReturn {"subject": string, "body": string}.`,
    },
  ];
}

export function subjectsPrompt(topic: string, tone: Tone): ChatMessageLike[] {
  return [
    sys(),
    {
      role: 'user',
      content: `Suggest 5 subject lines (under 70 characters) for a ${tone} guest post pitch about "${topic}". Return {"suggestions": string[]}.`,
    },
  ];
}

export function followUpPrompt(i: FollowUpInput): ChatMessageLike[] {
  return [
    sys(),
    {
      role: 'user',
      content: `Write a brief, polite ${i.tone ?? 'professional'} follow-up to this unanswered email. Subject must be "Re: " + the original subject.\nOriginal subject: ${i.original_subject}\nOriginal body:\n${i.original_body}\nReturn {"subject": string, "body": string}.`,
    },
  ];
}
