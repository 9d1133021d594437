/**
 * Outreach email writing through the AI gateway (the one metered path): a
 * first email, personalisation, subject suggestions and follow-ups. With no
 * text vendor configured the `local` provider answers with the offline
 * template writer (domain/outreach/writer.ts), and the metadata says so
 * (`offline: true`, `method: "template"`).
 */
import type { AiGateway, CompletionResponse } from '../infra/ai/gateway';
import { ajv, guarded, parsed, strings } from './ai-call';
import { activityKey } from './tasks';
import { followUpPrompt, generatePrompt, personalizePrompt, subjectsPrompt } from '../domain/outreach/prompts';
import type { EmailDraft, FollowUpInput, GenerateEmailInput, PersonalizeInput, Tone } from '../domain/outreach/writer';

export interface OutreachWritingDeps {
  gateway: AiGateway;
}

export interface WritingMetadata {
  provider: string;
  model: string;
  offline: boolean;
  /** `template` (offline writer) or `language_model` (a vendor). */
  method: 'template' | 'language_model';
}

const checkDraft = ajv.compile({
  type: 'object',
  required: ['subject', 'body'],
  properties: { subject: { type: 'string', minLength: 1 }, body: { type: 'string', minLength: 1 } },
});
const checkSubjects = ajv.compile({
  type: 'object',
  required: ['suggestions'],
  properties: { suggestions: { ...strings, minItems: 1 } },
});

const metadataOf = (r: CompletionResponse): WritingMetadata => ({
  provider: r.provider,
  model: r.model,
  offline: r.metadata.offline,
  method: r.metadata.offline ? 'template' : 'language_model',
});

export function createOutreachWritingActivities(deps: OutreachWritingDeps) {
  const draft = async (
    userId: string,
    purpose: string,
    messages: ReturnType<typeof generatePrompt>,
    localTask: Parameters<AiGateway['complete']>[0]['localTask'],
  ): Promise<EmailDraft & { metadata: WritingMetadata }> => {
    const r = await guarded(deps.gateway, {
      userId,
      purpose,
      messages,
      maxTokens: 900,
      idempotencyKey: activityKey(),
      localTask,
    });
    const d = parsed<EmailDraft>(r, checkDraft, 'outreach email');
    return { subject: d.subject.trim(), body: d.body.trim(), metadata: metadataOf(r) };
  };
  return {
    outreachGenerateEmail: (a: GenerateEmailInput & { userId: string }) =>
      draft(a.userId, 'outreach.email.generate', generatePrompt(a), { kind: 'outreach_email', input: strip(a) }),
    outreachPersonalizeEmail: (a: PersonalizeInput & { userId: string }) =>
      draft(a.userId, 'outreach.email.personalize', personalizePrompt(a), {
        kind: 'outreach_personalize',
        input: strip(a),
      }),
    outreachFollowUpEmail: (a: FollowUpInput & { userId: string }) =>
      draft(a.userId, 'outreach.email.follow_up', followUpPrompt(a), { kind: 'outreach_follow_up', input: strip(a) }),
    async outreachSubjectSuggestions(a: {
      userId: string;
      topic: string;
      tone?: Tone;
    }): Promise<{ suggestions: string[]; metadata: WritingMetadata }> {
      const tone = a.tone ?? 'professional';
      const r = await guarded(deps.gateway, {
        userId: a.userId,
        purpose: 'outreach.email.subjects',
        messages: subjectsPrompt(a.topic, tone),
        maxTokens: 300,
        idempotencyKey: activityKey(),
        localTask: { kind: 'outreach_subjects', input: { topic: a.topic, tone } },
      });
      const s = parsed<{ suggestions: string[] }>(r, checkSubjects, 'subject suggestions');
      const suggestions = [...new Set(s.suggestions.map((x) => x.trim()).filter(Boolean))].slice(0, 10);
      return { suggestions, metadata: metadataOf(r) };
    },
  };
}

/** The task input without the caller's id (what the offline writer reads). */
function strip<T extends { userId: string }>(a: T): Omit<T, 'userId'> {
  const { userId: _u, ...rest } = a;
  return rest;
}

export type OutreachWritingActivities = ReturnType<typeof createOutreachWritingActivities>;
