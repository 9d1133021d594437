/**
 * Completed content analyses: stream `seo-analysis-<analysis_id>`. The analysis itself is a pure function the API
 * calls directly; the event records that it happened, so webhooks (seo.analysis.completed, seo_analysis_complete)
 * and analysts can follow it. The content is not stored, only what was found.
 */
import { EventDefinitions, openAllRequired } from './types';
import { int, nonEmptyString, num } from '../schema';

export type AnalysisEvent = {
  type: 'SeoAnalysisCompleted';
  data: {
    analysis_id: string;
    user_id: string;
    route: string;
    seo_score: number;
    keywords: string[];
    word_count: number;
    recommendations: number;
  };
};

export const analysisEvents: EventDefinitions<AnalysisEvent['type']> = {
  SeoAnalysisCompleted: {
    area: 'analysis',
    version: 1,
    schema: openAllRequired({
      analysis_id: nonEmptyString,
      user_id: nonEmptyString,
      route: nonEmptyString,
      seo_score: num,
      keywords: { type: 'array', items: { type: 'string' } },
      word_count: { ...int, minimum: 0 },
      recommendations: { ...int, minimum: 0 },
    }),
  },
};

export const seoAnalysisStream = (analysisId: string) => `seo-analysis-${analysisId}`;
