/**
 * The professional- and social-network writers' AI tasks (domain/ai/task.ts): one per kind of draft, declared
 * once: the vendor prompt, the offline writer's task, the kind's draft schema and the completion budget. A call's
 * purpose is `writers.<platform>.<kind>`. The draft activity (activities/writers.ts) calls them through the
 * gateway's `run`.
 */
import { defineAiTask, type AiTask } from '../ai/task';
import { DRAFT_SCHEMAS, type DraftByKind } from './drafts';
import { writerPrompt } from './prompts';
import type { Source, WriterBrief, WriterKind } from './types';

export interface WriterDraftInput {
  brief: WriterBrief;
  /** The research sources, numbered 1..n (the [n] the draft may cite). */
  sources: Source[];
}

/** A draft of any kind, before the finishing rules (domain/writers/finish.ts). */
export type WriterDraft = DraftByKind[keyof DraftByKind];

/** Completion budget of one draft, by kind (articles by their word target). */
export function draftMaxTokens(b: WriterBrief): number {
  switch (b.kind) {
    case 'article':
      return Math.ceil(b.targetWords * 2) + 400;
    case 'page_about':
      return 400;
    case 'ad_copy':
    case 'story':
    case 'group_post':
      return 800;
    default:
      return 1200;
  }
}

const draftTask = (kind: WriterKind): AiTask<WriterDraftInput, WriterDraft> =>
  defineAiTask<WriterDraftInput, WriterDraft>({
    purpose: (i) => `writers.${i.brief.platform}.${i.brief.kind}`,
    answer: 'json',
    prompt: (i) => writerPrompt(i.brief, i.sources),
    local: (i) => ({ kind: 'social', input: { brief: i.brief, sources: i.sources } }),
    output: DRAFT_SCHEMAS[kind],
    maxTokens: (i) => draftMaxTokens(i.brief),
  });

/** The draft task of each kind: the vendor is asked for the kind's JSON draft; `local` writes it offline. */
export const WRITER_DRAFTS: Record<WriterKind, AiTask<WriterDraftInput, WriterDraft>> = {
  post: draftTask('post'),
  article: draftTask('article'),
  video_post: draftTask('video_post'),
  carousel: draftTask('carousel'),
  story: draftTask('story'),
  reel: draftTask('reel'),
  event: draftTask('event'),
  group_post: draftTask('group_post'),
  page_about: draftTask('page_about'),
  ad_copy: draftTask('ad_copy'),
};
