/**
 * Short copy through the gateway: social posts, hooks, headlines, subject
 * lines and captions (domain/generation/copy.ts). A vendor answers the JSON
 * prompt; without one the in-process model writes from the brief and the
 * template writer's version is what stays when the gate refuses it. Every
 * answer is held to the character limit (cut at a sentence end). Other
 * writers call `writeCopy` from their workflows for the short pieces they need.
 */
import type { AiGateway } from '../infra/ai/gateway';
import { charCount, fitToLimit, MODEL_PLANS, shortCopyPrompt } from '../domain/generation';
import type { CopyForm, GenerationMetadata, ProviderChoiceName, ShortCopyInput } from '../domain/generation';
import { activityKey } from './tasks';
import { ajv, generationInfo, guarded, parsed } from './ai-call';

export interface CopyActivityDeps {
  gateway: AiGateway;
}

export interface WrittenCopy {
  form: CopyForm;
  text: string;
  characters: number;
  metadata: GenerationMetadata;
}

const checkCopy = ajv.compile({ type: 'object', required: ['text'], properties: { text: { type: 'string' } } });

export function createCopyActivities(deps: CopyActivityDeps) {
  return {
    async writeCopy(a: { userId: string; copy: ShortCopyInput; provider?: ProviderChoiceName }): Promise<WrittenCopy> {
      const c = a.copy;
      const resp = await guarded(deps.gateway, {
        userId: a.userId,
        provider: a.provider,
        purpose: `copy.${c.form}`,
        messages: shortCopyPrompt(c),
        maxTokens: Math.ceil(c.maxChars / 2) + 50,
        idempotencyKey: activityKey(),
        localTask: { kind: 'short_copy', input: c },
        modelPlan: MODEL_PLANS.copy(
          'text',
          c.form,
          {
            topic: c.topic,
            audience: c.audience,
            tone: c.tone,
            platform: c.platform,
            keyPoints: c.keyPoints,
            facts: c.facts,
          },
          c.maxChars,
        ),
      });
      const text = fitToLimit(parsed<{ text: string }>(resp, checkCopy, 'short copy').text.trim(), c.maxChars);
      return { form: c.form, text, characters: charCount(text), metadata: generationInfo(resp) };
    },
  };
}

export type CopyActivities = ReturnType<typeof createCopyActivities>;
