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
import { markdownWordCount, titleCase, wordsIn } from './text';
import { asSentence, coverageOf, ctaSentence, introSentence, readBrief } from './compose';

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

/**
 * Citation numbers made global over parts written separately (the sections of a medium post, each written by its
 * own call with its sources numbered from 1): each distinct source (by URL) gets the number of its first citation
 * in reading order, 1..k, and every part's `[n]` and source list follow. A part's marker that names none of its
 * sources is left as it is (a vendor's slip is not hidden).
 */
export function renumberCitations<P extends { content: string; sources: Source[] }>(parts: P[]): P[] {
  // (Used by the activities on finished text, whoever wrote it: the writers number sources as given.)
  const global = new Map<string, number>();
  return parts.map((part) => {
    const local = new Map(part.sources.map((s) => [s.index, s]));
    const map = new Map<number, number>();
    const content = part.content.replace(/\[(\d+)\](?!\()/g, (m, d: string) => {
      const src = local.get(Number(d));
      if (!src) return m;
      const key = src.url || src.title;
      if (!global.has(key)) global.set(key, global.size + 1);
      map.set(Number(d), global.get(key)!);
      return `[${global.get(key)}]`;
    });
    const sources = part.sources
      .filter((s) => map.has(s.index as number))
      .map((s) => ({ ...s, index: map.get(s.index as number)! }))
      .sort((a, b) => a.index - b.index);
    return { ...part, content, sources };
  });
}

const FRAME =
  /^(?:according to “[^”]+”,\s*|as “[^”]+” notes,\s*|“[^”]+” reports that\s*|(?:“[^”]+”|one source) \[\d+\] makes the point directly:\s*)/i;
/** A sentence as compared for repeats: its attribution frame, markers, case and punctuation set aside. */
const sameness = (s: string) =>
  s
    .replace(FRAME, '')
    .replace(/\s*\[\d+\]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N} ]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Parts written separately (the sections of a medium post) without a sentence said twice: a sentence an earlier
 * part already said (the same source sentence quoted again, under whatever attribution) is dropped from the later
 * part; a paragraph or list item left empty goes with it.
 */
export function withoutRepeats<P extends { content: string }>(parts: P[]): P[] {
  const said = new Set<string>();
  return parts.map((part) => {
    const blocks = part.content.split(/\n{2,}/).map((block) =>
      block
        .split('\n')
        .map((line) => {
          // A list marker, a heading's hashes or a bold run-in label ("**Posting frequency.**") lead the line.
          const lead = /^(\s*(?:[-*+]|\d+[.)]|#{1,6})\s+)?(?:\*\*[^*]+\*\*\s*)?/.exec(line)![0];
          if (lead.includes('#')) return line;
          const body = line.slice(lead.length);
          const kept = (body.match(/[^.!?]+(?:[.!?]+["”’)]*|$)(?:\s*\[\d+\][.!?]?)?/g) ?? [body])
            .map((x) => x.trim())
            .filter((x) => {
              const key = sameness(x);
              if (!key || key.split(' ').length < 4) return true;
              if (said.has(key)) return false;
              said.add(key);
              return true;
            });
          return kept.length ? `${lead}${kept.join(' ')}`.trimEnd() : '';
        })
        .filter(Boolean)
        .join('\n'),
    );
    const kept = blocks.filter((b) => b.trim());
    // A heading left with nothing under it (before another heading of its level or above, or at the end) goes too.
    const level = (b: string) => /^(#{1,6})\s/.exec(b)?.[1].length ?? 0;
    const content = kept.filter((b, i) => {
      const h = level(b);
      if (!h) return true;
      const next = kept[i + 1];
      return next !== undefined && (level(next) === 0 || level(next) > h);
    });
    return { ...part, content: content.join('\n\n') };
  });
}

/**
 * A Markdown article's citations numbered 1..k in reading order: body markers mapped through `sources` (by their
 * given `index`), the References list written anew with exactly the cited sources. Markers naming no source are
 * left as they are.
 */
export function renumberArticle(markdown: string, sources: Source[]): { markdown: string; references: Source[] } {
  const cut = markdown.search(/^#{1,6}\s*references\s*$/im);
  const body = (cut >= 0 ? markdown.slice(0, cut) : markdown).trimEnd();
  const [part] = renumberCitations([{ content: body, sources }]);
  const refs = part.sources;
  const text = refs.length
    ? `${part.content}\n\n## References\n\n${refs.map(referenceLine).join('\n')}\n`
    : `${part.content}\n`;
  return { markdown: text, references: refs };
}

/** Content types that ask for a list: a listicle's items are a numbered list (`writeListicle`). */
export const LISTICLE = /\b(listicle|list|tips|ideas|steps|ways|checklist|reasons)\b/i;

/**
 * A listicle: the introduction, then a numbered list whose items are the key points as the user wrote them (each
 * followed by what the sources say about it), or, without key points, the source sentences about the topic, one
 * an item, cited. As many items as the brief and the sources give (never invented ones), within the length.
 */
function writeListicle(input: WriteArticleInput, title: string): ArticleDraft {
  const target = Math.max(1, Math.round(input.targetWords));
  const ctx = createWriterContext(input.sources ?? []);
  const points = (input.sections ?? []).flatMap((s) => (s.keyPoints?.length ? s.keyPoints : [s.heading]));
  const brief = readBrief({
    topic: input.topic,
    audience: input.audience,
    keyPoints: points,
    tone: input.tone,
    instructions: input.instructions,
    cta: input.cta,
  });
  const intro = introSentence(brief, `${input.topic}|${title}`);
  const body = writeSection(
    {
      heading: title,
      keyPoints: points,
      keywords: input.keywords,
      targetWords: Math.max(1, target - wordsIn(intro)),
      sources: input.sources,
      tone: input.tone,
      audience: input.audience,
      topic: input.topic,
      subject: [input.topic, ...(input.keywords ?? [])].join(' '),
      list: true,
      instructions: input.instructions,
      cta: input.cta,
    },
    ctx,
  );
  // The list items (key points with what the sources say, or quoted sentences), and any paragraph beside them.
  const lines = body.markdown.split(/\n+/).filter((l) => l.trim());
  const items = lines.filter((l) => l.startsWith('- ')).map((l) => l.slice(2));
  const rest = lines.filter((l) => !l.startsWith('- '));
  const list = items.map((t, i) => `${i + 1}. ${t.trim()}`).join('\n');
  const references = [...ctx.cited.values()].sort((a, b) => (a.index as number) - (b.index as number));
  const parts = [`# ${title}`, intro, ...(list ? [list] : []), ...rest];
  if (references.length) parts.push(`## References\n\n${references.map(referenceLine).join('\n')}`);
  const markdown = `${parts.join('\n\n')}\n`;
  const wordCount = articleWordCount(markdown);
  return {
    title,
    markdown,
    wordCount,
    sections: [{ ...body, id: 'items' }],
    references,
    coverage: coverageOf(brief, {
      keyPoints: body.coverage.key_points_used,
      sources: references.length,
      words: wordCount,
      targetWords: target,
      items: { wanted: items.length, written: items.length },
    }),
  };
}

export function writeArticle(input: WriteArticleInput): ArticleDraft {
  if (input.content_type && LISTICLE.test(input.content_type))
    return writeListicle(input, input.title?.trim() || titleCase(input.topic));
  const target = Math.max(1, Math.round(input.targetWords));
  let sections: Array<ArticleSectionInput & { subject?: string }> | undefined = input.sections;
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
    // The drafted outline's points are phrases for an editor to expand, not sentences: the sections of an
    // article drafted here say what the sources say about each heading, and nothing when they say nothing.
    sections = drafted.outline.map((s) => ({
      id: s.id,
      heading: s.heading,
      keyPoints: [],
      subheadings: [],
      subject: [s.keywords.join(' '), input.topic, ...(input.keywords ?? [])].join(' '),
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
  const brief = readBrief({
    topic: input.topic,
    audience: input.audience,
    keyPoints: sections.flatMap((s) => s.keyPoints ?? []),
    tone: input.tone,
    instructions: input.instructions,
    cta: input.cta,
  });
  const seed = `${input.topic}|${title}`;
  const intro = introSentence(brief, seed);
  let planned = 0;
  let written = wordsIn(intro);
  const drafts = sections.map((s, i) => {
    planned += budgets[i];
    const want = Math.max(1, planned - written);
    let draft = writeSection(
      {
        heading: s.heading,
        keyPoints: s.keyPoints,
        subheadings: s.subheadings,
        keywords: s.keywords ?? input.keywords,
        subject: s.subject,
        targetWords: want,
        sources: input.sources,
        tone: input.tone,
        audience: input.audience,
        topic: input.topic,
      },
      ctx,
    );
    // A section the sources say nothing about states its own heading (a key point given as a heading).
    if (!draft.markdown.trim() && !s.keyPoints?.length && input.sections?.length)
      draft = { ...draft, markdown: asSentence(s.heading), wordCount: wordsIn(s.heading) };
    written += draft.wordCount;
    return { ...draft, id: s.id ?? `s${i + 1}` };
  });
  const kept = drafts.filter((d) => d.markdown.trim());
  const closing = [...brief.instructions.sentences, ctaSentence(brief, seed)].filter(Boolean).join(' ');

  // Every cited source, by its number as given; the activity numbers the finished article 1..k in reading order.
  const references = [...ctx.cited.values()].sort((a, b) => (a.index as number) - (b.index as number));
  const parts = [`# ${title}`, intro, ...kept.map((d) => `## ${d.heading}\n\n${d.markdown}`)];
  if (closing) parts.push(closing);
  if (references.length) parts.push(`## References\n\n${references.map(referenceLine).join('\n')}`);
  const markdown = `${parts.join('\n\n')}\n`;
  const wordCount = articleWordCount(markdown);
  const coverage = coverageOf(brief, {
    keyPoints: kept.reduce((n, d) => n + d.coverage.key_points_used, 0),
    sources: references.length,
    words: wordCount,
    targetWords: target,
  });
  return { title, markdown, wordCount, sections: kept, references, coverage };
}
