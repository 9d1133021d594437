/**
 * writeArticle: a whole Markdown article from an outline (given, or drafted
 * from topic, keywords and sources).
 *
 * The word budget is split over the sections by their target_words; each
 * section then gets its share plus whatever the sections before it missed or
 * overshot, so per-section rounding does not add up across the article.
 * Sections share one writer context: a source sentence is quoted once per
 * article, and `[n]` numbers mean the same source everywhere. The References
 * list at the end holds exactly the sources cited in the text.
 */
import { largestRemainder } from '../analysis/outline-rebalance';
import type { ArticleDraft, ArticleSectionInput, Source, WriteArticleInput } from './types';
import { createWriterContext, writeSection } from './section';
import { draftOutline } from './outline';
import { markdownWordCount, titleCase } from './text';

/** Body words of an article: everything but headings and the References section. */
export function articleWordCount(markdown: string): number {
  const cut = markdown.search(/^## References\s*$/m);
  return markdownWordCount(cut >= 0 ? markdown.slice(0, cut) : markdown);
}

/** One line of the References list: "1. Title. url (published_at)". */
export function referenceLine(s: Source): string {
  const date = s.published_at ? ` (${s.published_at})` : '';
  return `${s.index}. ${s.title.trim().replace(/[.]+$/, '')}. <${s.url}>${date}`;
}

/** The `[n]` numbers used in a text. */
export function citationNumbers(markdown: string): number[] {
  return [...new Set([...markdown.matchAll(/\[(\d+)\](?!\()/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
}

export function writeArticle(input: WriteArticleInput): ArticleDraft {
  const target = Math.max(1, Math.round(input.targetWords));
  let sections: ArticleSectionInput[] | undefined = input.sections;
  let title = input.title?.trim();
  if (!sections?.length) {
    const drafted = draftOutline({
      topic: input.topic,
      keywords: input.keywords,
      sources: input.sources,
      wordCount: target,
      audience: input.audience,
      tone: input.tone,
    });
    sections = drafted.outline.map((s) => ({
      id: s.id,
      heading: s.heading,
      keyPoints: s.key_points,
      subheadings: s.subheadings,
      keywords: s.keywords,
      targetWords: s.target_words,
    }));
    title ??= drafted.title_options[0];
  }
  title ??= titleCase(input.topic);

  const known = sections.filter((s) => (s.targetWords ?? 0) > 0);
  const fallback = known.length ? known.reduce((n, s) => n + (s.targetWords ?? 0), 0) / known.length : 1;
  const budgets = largestRemainder(
    target,
    sections.map((s) => ((s.targetWords ?? 0) > 0 ? (s.targetWords as number) : fallback)),
  );

  const ctx = createWriterContext(input.sources ?? []);
  let planned = 0;
  let written = 0;
  const drafts = sections.map((s, i) => {
    planned += budgets[i];
    const want = Math.max(1, planned - written);
    const draft = writeSection(
      {
        heading: s.heading,
        keyPoints: s.keyPoints,
        subheadings: s.subheadings,
        keywords: s.keywords ?? input.keywords,
        targetWords: want,
        sources: input.sources,
        tone: input.tone,
        audience: input.audience,
        topic: input.topic,
      },
      ctx,
    );
    written += draft.wordCount;
    return { ...draft, id: s.id ?? `s${i + 1}` };
  });

  const references = [...ctx.cited.values()].sort((a, b) => (a.index as number) - (b.index as number));
  const parts = [`# ${title}`, ...drafts.map((d) => `## ${d.heading}\n\n${d.markdown}`)];
  if (references.length) parts.push(`## References\n\n${references.map(referenceLine).join('\n')}`);
  const markdown = `${parts.join('\n\n')}\n`;
  return { title, markdown, wordCount: articleWordCount(markdown), sections: drafts, references };
}
