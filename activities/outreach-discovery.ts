/**
 * Deep discovery: candidate pages from the sample sites of offline discovery,
 * the research corpus, and the configured web-search vendor (queries for the
 * keyword with "write for us", "guest post" and "resources"), scored by
 * domain/outreach/discovery.ts. Web results are scored on the text the vendor
 * returns for them (pages are not fetched separately).
 */
import type { ResearchProvider } from '../infra/research';
import type { SiteIndex } from '../infra/outreach/sites';
import { Candidate, DiscoveredSite, rankScore, scoreCandidates } from '../domain/outreach/discovery';
import { normalizeUrl } from '../domain/outreach/normalize';
import { withHeartbeat } from './heartbeat';

export interface OutreachDiscoveryDeps {
  research: ResearchProvider;
  sites: SiteIndex;
}

export function createOutreachDiscoveryActivities(deps: OutreachDiscoveryDeps) {
  return {
    async outreachDiscover(a: { keyword: string; keywords: string[]; maxResults: number }): Promise<{
      results: DiscoveredSite[];
      sources: string[];
    }> {
      const query = [a.keyword, ...a.keywords].join(' ');
      const candidates: Candidate[] = [...deps.sites.search(query, a.maxResults * 2)];
      const sources = ['sample_sites', 'research_corpus'];
      for (const s of await deps.research.corpus.search(a.keyword, { limit: a.maxResults })) {
        const slug = decodeURIComponent(s.url.split('/').pop() ?? '');
        const doc = deps.research.corpus.document(slug);
        if (doc)
          candidates.push({
            url: s.url,
            title: doc.title,
            text: doc.body,
            // Sample documents claim no credibility: the neutral 0.5 (docs/outreach.md), no authority from them.
            credibility: doc.credibility_score ?? 0.5,
            source: 'research_corpus',
          });
      }
      const web = deps.research.web;
      if (web) {
        sources.push(`web:${web.vendor}`);
        for (const q of [`${a.keyword} "write for us"`, `${a.keyword} guest post`, `${a.keyword} resources`]) {
          const found = await withHeartbeat(() => web.search(q, { limit: a.maxResults }));
          for (const r of found)
            candidates.push({
              url: r.url,
              title: r.title,
              text: r.excerpt,
              credibility: r.credibility_score ?? 0.5,
              source: `web:${web.vendor}`,
            });
        }
      }
      const seen = new Set<string>();
      const unique = candidates.filter((c) => {
        const k = normalizeUrl(c.url) ?? c.url;
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      });
      const results = scoreCandidates(unique, [a.keyword, ...a.keywords])
        .filter((r) => r.relevance_score > 0)
        .sort((x, y) => rankScore(y) - rankScore(x) || x.website_url.localeCompare(y.website_url))
        .slice(0, a.maxResults);
      return { results, sources };
    },
  };
}

export type OutreachDiscoveryActivities = ReturnType<typeof createOutreachDiscoveryActivities>;
