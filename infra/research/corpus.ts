/**
 * The local research corpus: a folder of Markdown, HTML or plain-text
 * documents, indexed with the analysis domain's BM25 and searched offline.
 *
 * Two indexes are kept: one over whole documents (title counted twice, so a
 * document *about* a query ranks above one that mentions it) to rank
 * sources, and one over paragraphs to choose each source's excerpt: the
 * paragraph that best matches the query, plus the next best one of the same
 * document when the first is short. A source's URL is the API route that
 * serves the document, so every citation the writer makes can be opened.
 *
 * Front matter (YAML between `---` lines) gives title, slug, published_at,
 * source_type, sample_of and credibility_score; documents without it get the
 * file name as slug, the first heading as title and source_type "web".
 * A credibility is only ever the front matter's own claim: without one a
 * source's credibility_score is null (never a default).
 *
 * The shipped corpus (data/corpus) is a set of sample documents written for
 * this project: `source_type: sample`, `sample_of` the kind of source each is
 * written as (industry, academic, government, web), no credibility_score
 * (docs/providers.md "Research sources").
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../paths';
import { parse as parseYaml } from 'yaml';
import { createBm25Index, search, Bm25Index } from '../../domain/analysis/bm25';
import { slugify } from '../../domain/analysis/slug';
import type { Source } from '../../domain/analysis/types';
import { countWords, buildDocument } from '../../domain/analysis/text';

export interface CorpusDocument {
  slug: string;
  title: string;
  published_at?: string;
  /** `sample` for the shipped sample documents; otherwise what the front matter says (default `web`). */
  source_type: string;
  /** For sample documents: the kind of source the sample is written as. */
  sample_of?: string;
  /** The front matter's credibility claim (0–1), or null when it makes none. */
  credibility_score: number | null;
  /** Body without front matter (Markdown, or text extracted from HTML). */
  body: string;
  /** Body paragraphs (headings dropped), the excerpt candidates. */
  paragraphs: string[];
  file: string;
}

export interface SearchOptions {
  /** Largest number of sources returned; default 8. */
  limit?: number;
}

export interface CorpusProvider {
  search(query: string, options?: SearchOptions): Promise<Source[]>;
  /** The document served at /api/research/corpus/{slug}, or undefined. */
  document(slug: string): CorpusDocument | undefined;
  list(): CorpusDocument[];
}

export const DEFAULT_CORPUS_DIR = path.join(projectRoot(), 'data/corpus');
const EXTENSIONS = /\.(md|markdown|txt|html?)$/i;

const htmlToText = (html: string): string =>
  html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<\/(p|div|h[1-6]|li|section|article)>/gi, '\n\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/[ \t]+/g, ' ');

/** Parses one file's text into a corpus document (exported for tests). */
export function parseCorpusDocument(file: string, raw: string): CorpusDocument {
  let meta: Record<string, unknown> = {};
  let body = raw.replace(/^\uFEFF/, '');
  const fm = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(body);
  if (fm) {
    const parsed = parseYaml(fm[1]) as unknown;
    if (parsed && typeof parsed === 'object') meta = parsed as Record<string, unknown>;
    body = body.slice(fm[0].length);
  }
  if (/\.html?$/i.test(file)) body = htmlToText(body);
  const blocks = body
    .split(/\n\s*\n/)
    .map((b) => b.trim())
    .filter(Boolean);
  const heading = blocks.find((b) => /^#\s/.test(b))?.replace(/^#\s+/, '');
  const paragraphs = blocks.filter((b) => !/^#{1,6}\s/.test(b)).map((b) => b.replace(/\s+/g, ' '));
  const str = (v: unknown): string | undefined =>
    v === undefined || v === null || v === ''
      ? undefined
      : v instanceof Date
        ? v.toISOString().slice(0, 10)
        : String(v);
  const base = path.basename(file).replace(EXTENSIONS, '');
  const credibility =
    meta.credibility_score === undefined || meta.credibility_score === null || meta.credibility_score === ''
      ? NaN
      : Number(meta.credibility_score);
  const sampleOf = str(meta.sample_of);
  return {
    slug: str(meta.slug) ?? slugify(base),
    title: str(meta.title) ?? heading ?? base,
    published_at: str(meta.published_at),
    source_type: str(meta.source_type) ?? 'web',
    ...(sampleOf ? { sample_of: sampleOf } : {}),
    credibility_score: Number.isFinite(credibility) ? Math.min(1, Math.max(0, credibility)) : null,
    body,
    paragraphs,
    file,
  };
}

/** Reads every document of `dir` (sorted by file name, so the index is the same on every machine). */
export function loadCorpus(dir: string = DEFAULT_CORPUS_DIR): CorpusDocument[] {
  return readdirSync(dir)
    .filter((f) => EXTENSIONS.test(f) && !/^readme\./i.test(f))
    .sort()
    .map((f) => parseCorpusDocument(f, readFileSync(path.join(dir, f), 'utf8')));
}

const words = (text: string): number => countWords(buildDocument(text).sentences);

export interface CorpusOptions {
  dir?: string;
  /** Documents to index instead of reading `dir` (tests). */
  documents?: CorpusDocument[];
  /** Base URL of the API (PUBLIC_BASE_URL or http://HOST:PORT): source URLs point at its corpus route. */
  publicBaseUrl: string;
  /** Longest excerpt in words; default 120. */
  excerptWords?: number;
}

export function createCorpusProvider(options: CorpusOptions): CorpusProvider {
  const docs = options.documents ?? loadCorpus(options.dir);
  const bySlug = new Map(docs.map((d) => [d.slug, d]));
  const docIndex: Bm25Index = createBm25Index(
    docs.map((d, i) => ({ id: String(i), text: `${d.title}\n${d.title}\n${d.body}` })),
  );
  const paraIds: Array<[number, number]> = [];
  const paraIndex = createBm25Index(
    docs.flatMap((d, i) =>
      d.paragraphs.map((p, j) => {
        paraIds.push([i, j]);
        return { id: String(paraIds.length - 1), text: p };
      }),
    ),
  );
  const maxWords = options.excerptWords ?? 120;
  const base = options.publicBaseUrl.replace(/\/+$/, '');

  function excerptOf(docNo: number, query: string): string {
    const doc = docs[docNo];
    const ranked = search(paraIndex, query, paraIndex.ids.length)
      .map((h) => paraIds[Number(h.id)])
      .filter(([d]) => d === docNo)
      .map(([, j]) => j);
    const order = ranked.length ? ranked : [0];
    const chosen = [order[0]];
    if (words(doc.paragraphs[order[0]] ?? '') < 60 && order[1] !== undefined) chosen.push(order[1]);
    const text = chosen
      .sort((a, b) => a - b)
      .map((j) => doc.paragraphs[j] ?? '')
      .join(' ');
    // Cut at a sentence end within the budget, never mid-sentence.
    const sentences = buildDocument(text).sentences;
    let out = '';
    let n = 0;
    for (const s of sentences) {
      const w = s.tokens.length;
      if (n > 0 && n + w > maxWords) break;
      out += (out ? ' ' : '') + s.text;
      n += w;
    }
    return out;
  }

  return {
    async search(query: string, opts: SearchOptions = {}): Promise<Source[]> {
      const limit = opts.limit ?? 8;
      return search(docIndex, query, limit).map((hit, i) => {
        const doc = docs[Number(hit.id)];
        return {
          title: doc.title,
          url: `${base}/api/research/corpus/${encodeURIComponent(doc.slug)}`,
          excerpt: excerptOf(Number(hit.id), query),
          credibility_score: doc.credibility_score,
          published_at: doc.published_at ?? '',
          index: i + 1,
          source_type: doc.source_type,
          ...(doc.sample_of ? { sample_of: doc.sample_of } : {}),
        };
      });
    },
    document: (slug: string) => bySlug.get(slug),
    list: () => [...docs],
  };
}
