/**
 * The response shapes both writers share (designed once, docs/writers.md):
 * one generation, one batch item, one batch. Type aliases (not interfaces),
 * so a result is a plain JSON record a task can store.
 */
import type { Coverage } from '../generation/compose';
import type { EngagementPrediction, FactorResult } from './engagement-model';
import type { RenderingStatus } from './finish';
import type { Adjustment } from './text-limits';
import type { AppliedDefault, Source, WriterKind, WriterPlatform } from './types';

export type WriterResult = {
  success: true;
  /** The generation's task id (also its workflow id). */
  task_id: string;
  platform: WriterPlatform;
  content_type: WriterKind;
  /** The whole piece as one plain text. */
  text: string;
  /** The structured piece; its shape depends on content_type. */
  content: Record<string, unknown>;
  engagement_prediction?: EngagementPrediction;
  engagement_factors?: FactorResult[];
  limits: {
    format: string;
    max_characters: number;
    published: boolean;
    max_hashtags: number;
    max_emoji: number;
    max_line_breaks: number;
    checked_at: string;
    adjustments: Adjustment[];
  };
  rendering: RenderingStatus[];
  /** The research the piece was written from, numbered as its [n] citations. */
  sources: Source[];
  /** Values taken from the user's stored preferences because the request left them out. */
  defaults_applied: AppliedDefault[];
  metadata: {
    provider: string;
    model: string;
    offline: boolean;
    tokens_in: number;
    tokens_out: number;
    cost: number;
    token_source: string;
    research_provider: string;
    generated_at: string;
    workflow_id: string;
    /** The offline writer's account of how it met the brief and why the text is shorter than asked (compose.ts). */
    coverage?: Coverage;
  };
};

export type BatchItemSummary = {
  /** 1-based position in the request's `requests`. */
  index: number;
  type: WriterKind;
  task_id: string;
  status: 'completed' | 'failed';
  error?: { code: string; message: string };
};

export type BatchResult = {
  batch_id: string;
  platform: WriterPlatform;
  total: number;
  succeeded: number;
  failed: number;
  items: BatchItemSummary[];
};
