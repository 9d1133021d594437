/**
 * Offline profnet articles: the blog writer's article generator
 * (domain/generation/article.ts) on the research sources, with `[n]`
 * citations, split into the sections of the article draft shape.
 */
import type { ArticleDraft } from '../../writers/drafts';
import type { ArticleBrief } from '../../writers/types';
import { writeArticle } from '../article';
import type { Source } from '../types';
import { hashtagsFor, Kit } from './kit';

export function writeProfnetArticle(k: Kit, b: ArticleBrief, sources: Source[]): ArticleDraft {
  const a = writeArticle({
    topic: b.topic,
    keywords: [b.topic, b.industry].filter(Boolean),
    sources,
    tone: b.tone,
    audience: b.audience || undefined,
    targetWords: b.targetWords,
  });
  for (const s of a.references) if (s.index) k.used.add(s.index);
  return {
    title: a.title,
    sections: a.sections.map((s) => ({ heading: s.heading, body: s.markdown })),
    hashtags: hashtagsFor(k),
    ...(b.image.requested ? { image_prompt: `${b.image.style ?? 'editorial'} header image about ${k.topic}` } : {}),
  };
}
