/**
 * The `local` provider: the offline writer of domain/generation behind the
 * same interface as a text vendor. It is not a language model: it runs the
 * request's `localTask` (section, article, outline, research summary), or,
 * for a plain chat prompt, returns an extractive summary of the prompt.
 * Deterministic, in-process, free (docs/providers.md).
 */
import { LOCAL_MODEL } from '../../domain/pricing';
import {
  draftOutline,
  localChatAnswer,
  researchSummary,
  writeArticle,
  writeSection,
  writeShortCopy,
} from '../../domain/generation';
import type { LocalTask } from '../../domain/generation';
import { enhanceSectionOffline, optimizeOutlineOffline, reviseSectionOffline } from '../../domain/blog/revise';
import type { ChatClient, ChatRequest, ChatResult } from './openai-compatible';

export interface LocalRequest extends ChatRequest {
  localTask?: LocalTask;
}

export interface LocalProvider extends ChatClient {
  complete(request: LocalRequest): Promise<ChatResult>;
}

/**
 * Text of a task: Markdown for sections and articles; JSON for outlines and
 * research summaries (the shape a vendor is asked to return for them, so
 * callers parse both providers' answers the same way).
 */
export function runLocalTask(task: LocalTask): string {
  switch (task.kind) {
    case 'section':
      return writeSection(task.input).markdown;
    case 'article':
      return writeArticle(task.input).markdown;
    case 'outline':
      return JSON.stringify(draftOutline(task.input));
    case 'research':
      return JSON.stringify(researchSummary(task.input));
    case 'enhance_section':
      return JSON.stringify(enhanceSectionOffline(task.input.section, task.input.focus));
    case 'optimize_outline':
      return JSON.stringify(optimizeOutlineOffline(task.input.outline, task.input.focus));
    case 'revise_section':
      return reviseSectionOffline(task.input.content).content;
    case 'short_copy':
      return JSON.stringify(writeShortCopy(task.input));
  }
}

export function createLocalProvider(): LocalProvider {
  return {
    provider: 'local',
    model: LOCAL_MODEL,
    async complete(request: LocalRequest): Promise<ChatResult> {
      const text = request.localTask ? runLocalTask(request.localTask) : localChatAnswer(request.messages);
      return { text, finishReason: 'stop', model: LOCAL_MODEL, attempts: 1 };
    },
  };
}
