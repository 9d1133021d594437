/**
 * Short copy through the gateway: social posts, hooks, headlines, subject
 * lines and captions (domain/generation/copy.ts). A vendor answers the JSON
 * prompt; without one the in-process model writes from the brief and the
 * template writer's version is what stays when the gate refuses it. Every
 * answer is held to the character limit (cut at a sentence end). Other
 * writers call `writeCopy` from their workflows for the short pieces they need.
 */
import type { AiGateway } from '../infra/ai/completion';
import { charCount, fitToLimit } from '../domain/generation';
import type { CopyForm, GenerationMetadata, ProviderChoiceName, ShortCopyInput } from '../domain/generation';
import { SHORT_COPY } from '../domain/generation/tasks';
import { activityKey } from './tasks';
import { ask, generationInfo } from './ai-call';

export interface CopyActivityDeps {
  gateway: AiGateway;
}

export interface WrittenCopy {
  form: CopyForm;
  text: string;
  characters: number;
  metadata: GenerationMetadata;
}

export function createCopyActivities(deps: CopyActivityDeps) {
  return {
    async writeCopy(a: { userId: string; copy: ShortCopyInput; provider?: ProviderChoiceName }): Promise<WrittenCopy> {
      const c = a.copy;
      const { output, response } = await ask(deps.gateway, SHORT_COPY, c, {
        userId: a.userId,
        provider: a.provider,
        idempotencyKey: activityKey(),
      });
      const text = fitToLimit(output.text.trim(), c.maxChars);
      return { form: c.form, text, characters: charCount(text), metadata: generationInfo(response) };
    },
  };
}

export type CopyActivities = ReturnType<typeof createCopyActivities>;
