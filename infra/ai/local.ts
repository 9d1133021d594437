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
import type { Coverage } from '../../domain/generation';
import type { LocalTask } from '../../domain/ai/tasks';
import { enhanceSectionOffline, optimizeOutlineOffline, reviseSectionOffline } from '../../domain/blog/revise';
import { writeSocial } from '../../domain/generation/social';
import { localVideoPlan } from '../../domain/video/local-planner';
import { analyzeIdeaOffline, enhanceIdeaOffline, searchQueriesOffline } from '../../domain/podcast/analysis';
import { localScript } from '../../domain/podcast/local-script';
import type { ChatClient, ChatRequest, ChatResult } from './openai-compatible';
import { followUpEmail, generateEmail, personalizeEmail, subjectSuggestions } from '../../domain/outreach/writer';

export interface LocalRequest extends ChatRequest {
  localTask?: LocalTask;
}

/** What the offline writer answered: the object (or Markdown) itself, its text, and how it met the brief. */
export interface LocalAnswer {
  /** The answer as the task's type: an object for JSON tasks, the Markdown for sections, articles and revisions. */
  value: unknown;
  /** The same as text: the Markdown, or the object as JSON (what the model rewrites and what tokens count). */
  text: string;
  coverage?: Coverage;
}

export interface LocalProvider extends ChatClient {
  complete(request: LocalRequest): Promise<ChatResult & { value?: unknown; coverage?: Coverage }>;
}

/** The offline writer's answer to a task as text (Markdown, or JSON for object answers). */
export function runLocalTask(task: LocalTask): string {
  return localAnswer(task).text;
}

/** A task's answer: its value, that value as text, and (writers that report it) `coverage` (compose.ts). */
export function localAnswer(task: LocalTask): LocalAnswer {
  if (task.kind === 'section') {
    const d = writeSection(task.input);
    return { value: d.markdown, text: d.markdown, coverage: d.coverage };
  }
  if (task.kind === 'article') {
    const d = writeArticle(task.input);
    return { value: d.markdown, text: d.markdown, coverage: d.coverage };
  }
  const value = taskValue(task);
  const coverage = (value as { coverage?: Coverage } | null)?.coverage;
  return { value, text: typeof value === 'string' ? value : JSON.stringify(value), ...(coverage ? { coverage } : {}) };
}

function taskValue(task: Exclude<LocalTask, { kind: 'section' | 'article' }>): unknown {
  switch (task.kind) {
    case 'outline':
      return draftOutline(task.input);
    case 'research':
      return researchSummary(task.input);
    case 'enhance_section':
      return enhanceSectionOffline(task.input.section, task.input.focus);
    case 'optimize_outline':
      return optimizeOutlineOffline(task.input.outline, task.input.focus);
    case 'revise_section':
      return reviseSectionOffline(task.input.content).content;
    case 'outreach_email':
      return generateEmail(task.input);
    case 'outreach_personalize': {
      const p = personalizeEmail(task.input);
      return { subject: p.subject, body: p.body };
    }
    case 'outreach_subjects':
      return { suggestions: subjectSuggestions(task.input.topic, task.input.tone) };
    case 'outreach_follow_up':
      return followUpEmail(task.input);
    case 'social':
      return writeSocial(task.input);
    case 'social_post':
      return writeSocialPost(task.input);
    case 'platform_post':
      return writePlatformPost(task.input);
    case 'strategy':
      return contentStrategy(task.input);
    case 'personas':
      return developPersonas(task.input);
    case 'keyword_insights':
      return keywordInsights(task.input);
    case 'video_plan':
      return localVideoPlan(task.input);
    case 'short_copy':
      return writeShortCopy(task.input);
    case 'podcast_idea':
      return enhanceIdeaOffline(task.input);
    case 'podcast_analysis':
      return analyzeIdeaOffline(task.input);
    case 'podcast_queries':
      return searchQueriesOffline(task.input);
    case 'podcast_script':
      return localScript(task.input);
  }
}

export function createLocalProvider(): LocalProvider {
  return {
    provider: 'local',
    model: LOCAL_MODEL,
    async complete(request: LocalRequest): Promise<ChatResult & { value?: unknown; coverage?: Coverage }> {
      const answer = request.localTask ? localAnswer(request.localTask) : { text: localChatAnswer(request.messages) };
      return { ...answer, finishReason: 'stop', model: LOCAL_MODEL, attempts: 1 };
    },
  };
}
