/**
 * The sample sites of offline discovery (data/outreach-sites, see its README):
 * Markdown pages with front matter (title, website_url, credibility_score),
 * searched with the same BM25 as the research corpus.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../paths';
import { parse as parseYaml } from 'yaml';
import { parseCorpusDocument } from '../research/corpus';
import { createBm25Index, search } from '../../domain/analysis/bm25';
import type { Candidate } from '../../domain/outreach/discovery';

export const DEFAULT_SITES_DIR = path.join(projectRoot(), 'data/outreach-sites');

export interface SiteIndex {
  search(query: string, limit: number): Candidate[];
}

export function loadSampleSites(dir: string = DEFAULT_SITES_DIR): SiteIndex {
  const pages = readdirSync(dir)
    .filter((f) => /\.md$/i.test(f) && !/^readme\./i.test(f))
    .sort()
    .map((f) => {
      const raw = readFileSync(path.join(dir, f), 'utf8');
      const doc = parseCorpusDocument(f, raw);
      const fm = /^---\r?\n([\s\S]*?)\r?\n---/.exec(raw);
      const meta = (fm ? parseYaml(fm[1]) : {}) as { website_url?: string };
      return {
        url: meta.website_url ?? `https://${doc.slug}.example/`,
        title: doc.title,
        text: doc.body,
        // The page's front matter claims one; without it, the neutral 0.5 (docs/outreach.md).
        credibility: doc.credibility_score ?? 0.5,
        source: 'sample_site',
      };
    });
  const index = createBm25Index(pages.map((p, i) => ({ id: String(i), text: `${p.title}\n${p.title}\n${p.text}` })));
  return { search: (q, limit) => search(index, q, limit).map((h) => pages[Number(h.id)]) };
}
