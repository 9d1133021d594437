/**
 * Outreach email writing through the AI gateway (the one metered path): a
 * first email, personalisation, subject suggestions and follow-ups. With no
 * text vendor configured the `local` provider answers with the offline
 * template writer (domain/outreach/writer.ts), and the metadata says so
 * (`offline: true`, `method: "template"`).
 */
import type { AiGateway, CompletionResponse } from '../infra/ai/completion';
import { ask } from './ai-call';
import { activityKey } from './tasks';
import type { AiTask } from '../domain/ai/task';
import { OUTREACH_EMAIL, OUTREACH_FOLLOW_UP, OUTREACH_PERSONALIZE, OUTREACH_SUBJECTS } from '../domain/outreach/tasks';
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

const metadataOf = (r: CompletionResponse): WritingMetadata => ({
  provider: r.provider,
  model: r.model,
  offline: r.metadata.offline,
  method: r.metadata.offline ? 'template' : 'language_model',
});

export function createOutreachWritingActivities(deps: OutreachWritingDeps) {
  const draft = async <I extends { userId: string }>(
    task: AiTask<Omit<I, 'userId'>, EmailDraft>,
    a: I,
  ): Promise<EmailDraft & { metadata: WritingMetadata }> => {
    const { output: d, response } = await ask(deps.gateway, task, strip(a), {
      userId: a.userId,
      idempotencyKey: activityKey(),
    });
    return { subject: d.subject.trim(), body: d.body.trim(), metadata: metadataOf(response) };
  };
  return {
    outreachGenerateEmail: (a: GenerateEmailInput & { userId: string }) => draft(OUTREACH_EMAIL, a),
    outreachPersonalizeEmail: (a: PersonalizeInput & { userId: string }) => draft(OUTREACH_PERSONALIZE, a),
    outreachFollowUpEmail: (a: FollowUpInput & { userId: string }) => draft(OUTREACH_FOLLOW_UP, a),
    async outreachSubjectSuggestions(a: {
      userId: string;
      topic: string;
      tone?: Tone;
    }): Promise<{ suggestions: string[]; metadata: WritingMetadata }> {
      const { output, response } = await ask(
        deps.gateway,
        OUTREACH_SUBJECTS,
        { topic: a.topic, tone: a.tone ?? 'professional' },
        { userId: a.userId, idempotencyKey: activityKey() },
      );
      const suggestions = [...new Set(output.suggestions.map((x) => x.trim()).filter(Boolean))].slice(0, 10);
      return { suggestions, metadata: metadataOf(response) };
    },
  };
}

/** The task input without the caller's id (what the offline writer reads). */
function strip<T extends { userId: string }>(a: T): Omit<T, 'userId'> {
  const { userId: _u, ...rest } = a;
  return rest;
}

export type OutreachWritingActivities = ReturnType<typeof createOutreachWritingActivities>;
