/**
 * Outreach email writing (Document 3: /emails/generate, /personalize,
 * /subject-suggestions, /follow-up): each a workflow the API executes and
 * waits for (workflow ids `outreach-email-<kind>-<uuid>`), because the call
 * spends vendor budget (metered once per activity by the AI gateway).
 */
import { proxyActivities } from '@temporalio/workflow';
import type { OutreachWritingActivities } from '../activities/outreach-writing';
import type { FollowUpInput, GenerateEmailInput, PersonalizeInput, Tone } from '../domain/outreach/writer';
import { PAID_CALL_RETRY } from './retry';

const paid = proxyActivities<OutreachWritingActivities>({
  startToCloseTimeout: '3m',
  heartbeatTimeout: '2m',
  retry: PAID_CALL_RETRY,
});

type As<T> = T & { userId: string };

export const outreachGenerateEmailWorkflow = (a: As<GenerateEmailInput>) => paid.outreachGenerateEmail(a);
export const outreachPersonalizeEmailWorkflow = (a: As<PersonalizeInput>) => paid.outreachPersonalizeEmail(a);
export const outreachFollowUpEmailWorkflow = (a: As<FollowUpInput>) => paid.outreachFollowUpEmail(a);
export const outreachSubjectSuggestionsWorkflow = (a: As<{ topic: string; tone?: Tone }>) =>
  paid.outreachSubjectSuggestions(a);
