/**
 * The podcast maker's AI tasks (domain/ai/task.ts), each declared once: the vendor prompt, the offline writer's
 * task (none for translation: Apertium translates offline, outside the gateway) and the shape of a valid answer.
 * The podcast activities call them through the gateway's `run` and get typed answers.
 */
import { defineAiTask, faultOf, type AiTask } from '../ai/task';
import { anyString, arr } from '../schema';
import type { EnhancedIdea, IdeaAnalysis, IdeaInput, SearchQueries } from './analysis';
import type { TextJob, TextKind } from './jobs';
import { analyzeIdeaPrompt, enhanceIdeaPrompt, queriesPrompt, scriptPrompt, translatePrompt } from './prompts';
import { scriptFromDraft, type ScriptDraft, type ScriptInput } from './script';

/** The idea rewritten, with title suggestions, hooks and keywords. */
export const PODCAST_IDEA = defineAiTask<IdeaInput, EnhancedIdea>({
  purpose: 'podcast.idea',
  answer: 'json',
  prompt: enhanceIdeaPrompt,
  local: (input) => ({ kind: 'podcast_idea', input }),
  output: {
    type: 'object',
    required: ['enhanced_idea'],
    properties: {
      enhanced_idea: { type: 'string', minLength: 1 },
      title_suggestions: arr(anyString),
      hooks: arr(anyString),
      keywords: arr(anyString),
    },
  },
  maxTokens: () => 1200,
});

/** Audience, angle and segment outline of the idea. */
export const PODCAST_ANALYSIS = defineAiTask<IdeaInput, IdeaAnalysis>({
  purpose: 'podcast.analysis',
  answer: 'json',
  prompt: analyzeIdeaPrompt,
  local: (input) => ({ kind: 'podcast_analysis', input }),
  output: {
    type: 'object',
    required: ['audience', 'angle', 'segment_outline'],
    properties: {
      audience: { type: 'string' },
      angle: { type: 'string' },
      segment_outline: { type: 'array', items: { type: 'object', required: ['title'] } },
    },
  },
  maxTokens: () => 1200,
});

/** Search queries for the episode's research. */
export const PODCAST_QUERIES = defineAiTask<IdeaInput & { count?: number; previous?: string[] }, SearchQueries>({
  purpose: 'podcast.queries',
  answer: 'json',
  prompt: queriesPrompt,
  local: (input) => ({ kind: 'podcast_queries', input }),
  output: {
    type: 'object',
    required: ['queries'],
    properties: { queries: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } } },
  },
  maxTokens: () => 1200,
});

/** The text task of each kind of text job (workflows/podcast.ts). */
export const PODCAST_TEXT_TASKS: Record<TextKind, AiTask<TextJob['input'], object>> = {
  enhance: PODCAST_IDEA,
  analyze: PODCAST_ANALYSIS,
  queries: PODCAST_QUERIES,
};

/** The episode's script, sized to its duration (the offline writer adds its `coverage`). */
export const PODCAST_SCRIPT = defineAiTask<ScriptInput, ScriptDraft>({
  purpose: 'podcast.script',
  answer: 'json',
  prompt: scriptPrompt,
  local: (input) => ({ kind: 'podcast_script', input }),
  output: {
    type: 'object',
    required: ['scenes'],
    properties: {
      title: { type: 'string' },
      scenes: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['lines'],
          properties: {
            title: { type: 'string' },
            lines: {
              type: 'array',
              items: {
                type: 'object',
                required: ['speaker', 'text'],
                properties: { speaker: { type: 'string' }, text: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  },
  // A script with no line that has words once made speakable cannot be voiced: asked again.
  usable: (draft, input) => faultOf(() => scriptFromDraft(draft, input, { provider: '', model: '' })),
  maxTokens: (s) => Math.min(16000, 600 + s.target_words * 3),
});

export interface TranslateInput {
  texts: string[];
  from: string;
  to: string;
}

/** A dub's segments translated by a text vendor (vendor-only: offline, Apertium translates outside the gateway). */
export const PODCAST_TRANSLATE = defineAiTask<TranslateInput, { translations: string[] }>({
  purpose: 'podcast.translate',
  answer: 'json',
  prompt: (t) => translatePrompt(t.texts, t.from, t.to),
  output: {
    type: 'object',
    required: ['translations'],
    properties: { translations: { type: 'array', items: { type: 'string' } } },
  },
  maxTokens: (t) => Math.min(16000, 200 + t.texts.join(' ').length),
});
