/**
 * Offline profnet articles: the blog writer's article generator
 * (domain/generation/article.ts) on the research sources, with `[n]`
 * citations, split into the sections of the article draft shape. It is given
 * only the sources about the topic (their title or a sentence names a phrase
 * of it), and writes from relevance: a topic no source is about gets no
 * source section, and the
 * draft is then its opening paragraph alone (one "Overview" section, since the
 * draft shape needs one), not a padded article.
 */
import type { ArticleDraft } from '../../writers/drafts';
import type { ArticleBrief } from '../../writers/types';
import { writeArticle } from '../article';
import { asSentence } from '../compose';
import { buildEvidencePool, numberSources } from '../evidence';
import { topicScore } from '../social-compose';
import type { Source } from '../types';
import { hashtagsFor, Kit } from './kit';

/** The article's text before its first `##` section: the opening paragraph, without the `# title`. */
const openingOf = (markdown: string): string =>
  markdown
    .split(/\n(?=## )/)[0]
    .replace(/^# .*$/m, '')
    .trim();

/**
 * The sources about the topic: its title names it, or one of its sentences does (social-compose.ts `topicScore`).
 * An E-E-A-T guide's "Author pages that describe credentials …" is not research on author events at a bookshop.
 */
function sourcesAbout(k: Kit, sources: Source[]): Source[] {
  const pool = buildEvidencePool(numberSources(sources));
  const about = new Set([...pool.byId.values()].filter((e) => topicScore(e.text, k.b, e.title) > 0).map((e) => e.n));
  return numberSources(sources)
    .filter(({ n, source }) => about.has(n) || topicScore(source.title ?? '', k.b) > 0)
    .map(({ source }) => source);
}

export function writeProfnetArticle(k: Kit, b: ArticleBrief, sources: Source[]): ArticleDraft {
  const a = writeArticle({
    topic: b.topic,
    keywords: [b.topic, b.industry].filter(Boolean),
    sources: sourcesAbout(k, sources),
    tone: b.tone,
    audience: b.audience || undefined,
    targetWords: b.targetWords,
  });
  for (const s of a.references) if (s.index) k.used.add(s.index);
  const sections = a.sections.map((s) => ({ heading: s.heading, body: s.markdown }));
  return {
    title: a.title,
    sections: sections.length
      ? sections
      : [{ heading: 'Overview', body: openingOf(a.markdown) || asSentence(k.topic) }],
    hashtags: hashtagsFor(k),
    ...(b.image.requested ? { image_prompt: `${b.image.style ?? 'editorial'} header image about ${k.topic}` } : {}),
    // What the article was built from and why it is shorter than `targetWords` (the article writer's account).
    coverage: a.coverage,
  };
}
