/**
 * Events of the blog writer's sections: stream `blogsection-<user_id>:<section_id>`
 * (section ids are the client's outline ids, so they are scoped by user).
 * Each generation or optimization of a section records its continuity metrics
 * (domain/blog/continuity.ts); the section-continuity projection keeps the latest.
 */
import { EventDefinitions, openAllRequired } from './types';
import { int, nonEmptyString, num } from '../schema';
import type { ContinuityMetrics } from '../blog/continuity';

export type BlogSectionEvent = {
  type: 'SectionContinuityRecorded';
  data: {
    user_id: string;
    section_id: string;
    heading: string;
    keywords: string[];
    origin: 'generate' | 'optimize';
    workflow_id: string;
    metrics: ContinuityMetrics;
  };
};

const metrics = openAllRequired({
  word_count: int,
  readability_score: num,
  keyword_density: num,
  citation_coverage: num,
  flow_score: num,
  coherence_score: num,
  engagement_score: num,
});

export const blogSectionEvents: EventDefinitions<BlogSectionEvent['type']> = {
  SectionContinuityRecorded: {
    area: 'blog',
    version: 1,
    schema: openAllRequired({
      user_id: nonEmptyString,
      section_id: nonEmptyString,
      heading: { type: 'string' },
      keywords: { type: 'array', items: { type: 'string' } },
      origin: { enum: ['generate', 'optimize'] },
      workflow_id: nonEmptyString,
      metrics,
    }),
  },
};

export const sectionStream = (userId: string, sectionId: string) => `blogsection-${userId}:${sectionId}`;
