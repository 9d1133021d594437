/**
 * The `local` provider: the offline writer of domain/generation behind the
 * same interface as a text vendor. It is not a language model: it runs the
 * request's `localTask` (section, article, outline, research summary, video
 * plan), or, for a plain chat prompt, returns an extractive summary of the prompt.
 * Deterministic, in-process, free (docs/providers.md).
 */
import { LOCAL_MODEL } from '../../domain/pricing';
import {
  contentStrategy,
  developPersonas,
  draftOutline,
  keywordInsights,
  localChatAnswer,
  researchSummary,
  writeArticle,
  writeSection,
  writeSocialPost,
  writePlatformPost,
  writeShortCopy,
} from '../../domain/generation';
import type { LocalTask } from '../../domain/generation';
import { enhanceSectionOffline, optimizeOutlineOffline, reviseSectionOffline } from '../../domain/blog/revise';
import { writeSocial } from '../../domain/generation/social';
import { localVideoPlan } from '../../domain/video/plan';
import { analyzeIdeaOffline, enhanceIdeaOffline, searchQueriesOffline } from '../../domain/podcast/analysis';
import { localScript } from '../../domain/podcast/script';
import type { ChatClient, ChatRequest, ChatResult } from './openai-compatible';
import { followUpEmail, generateEmail, personalizeEmail, subjectSuggestions } from '../../domain/outreach/writer';

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
    case 'outreach_email':
      return JSON.stringify(generateEmail(task.input));
    case 'outreach_personalize': {
      const p = personalizeEmail(task.input);
      return JSON.stringify({ subject: p.subject, body: p.body });
    }
    case 'outreach_subjects':
      return JSON.stringify({ suggestions: subjectSuggestions(task.input.topic, task.input.tone) });
    case 'outreach_follow_up':
      return JSON.stringify(followUpEmail(task.input));
    case 'social':
      return JSON.stringify(writeSocial(task.input));
    case 'social_post':
      return JSON.stringify(writeSocialPost(task.input));
    case 'platform_post':
      return JSON.stringify(writePlatformPost(task.input));
    case 'strategy':
      return JSON.stringify(contentStrategy(task.input));
    case 'personas':
      return JSON.stringify(developPersonas(task.input));
    case 'keyword_insights':
      return JSON.stringify(keywordInsights(task.input));
    case 'video_plan':
      return JSON.stringify(localVideoPlan(task.input));
    case 'short_copy':
      return JSON.stringify(writeShortCopy(task.input));
    case 'podcast_idea':
      return JSON.stringify(enhanceIdeaOffline(task.input));
    case 'podcast_analysis':
      return JSON.stringify(analyzeIdeaOffline(task.input));
    case 'podcast_queries':
      return JSON.stringify(searchQueriesOffline(task.input));
    case 'podcast_script':
      return JSON.stringify(localScript(task.input));
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
