/**
 * Scoring of discovered sites (pure). Each candidate page gets three scores
 * in 0-1 (docs/outreach.md):
 *
 * - guest_post_likelihood = 0.5·g + 0.2·r + 0.2·d + 0.1·e, where
 *   g = 1 for two or more guest-post phrases ("write for us", "guest post", "contributor guidelines",
 *   "submit an article", "become a contributor", ...), 0.6 for one, else 0;
 *   r = 1 when the page is a resource page ("resources", "useful links", "recommended reading", "suggest a
 *   resource"); d = outbound links per 100 words ÷ 5, at most 1; e = 1 when the page shows a contact email.
 * - relevance_score = BM25 of the page (title + text) against the campaign keywords and the search keyword,
 *   divided by the best BM25 score among the candidates of the same search (the best page scores 1; a page
 *   sharing no term scores 0).
 * - quality_score = 0.4·credibility of the source + 0.2·e + 0.2·min(1, words ÷ 600) + 0.2·(https).
 *
 * Results are ranked by 0.4·guest_post_likelihood + 0.4·relevance + 0.2·quality.
 */
import { createBm25Index, search } from '../analysis/bm25';

export interface Candidate {
  url: string;
  title: string;
  text: string;
  credibility: number;
  source: string;
}

export interface DiscoveredSite {
  website_url: string;
  website_title: string;
  contact_email: string | null;
  contact_emails: string[];
  quality_score: number;
  relevance_score: number;
  guest_post_likelihood: number;
  signals: string[];
  source: string;
}

const GUEST = [
  /write for us/i,
  /guest (post|posts|posting|article|author|blogger|contributor)s?/i,
  /contributor guidelines|submission guidelines/i,
  /submit (an?|your) (article|post|guest post|pitch|article idea)/i,
  /become a (contributor|guest author|writer)/i,
  /we accept (guest|contributed)/i,
  /pitch us/i,
];
const RESOURCE =
  /\b(resources? page|useful (links|resources)|recommended (reading|tools|resources|sites)|suggest a resource|resource list)\b|^#\s*.*resources\b/im;
const LINK = /\]\(https?:\/\/[^)\s]+\)|(?<![("'=])https?:\/\/[^\s)<>"]+/g;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const PREFERRED =
  /^(editor|editors|editorial|contribute|contributors?|guest|guestposts?|write|writers|pitch|pitches|content|submissions?|resources|hello|contact|info)@/i;

const round = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;
const words = (t: string) => t.split(/\s+/).filter(Boolean).length;

/** Addresses on a page, best contact first (editorial-sounding local parts before others). */
export function contactEmails(text: string): string[] {
  const found = [...new Set((text.match(EMAIL) ?? []).map((e) => e.toLowerCase().replace(/\.$/, '')))];
  return [...found.filter((e) => PREFERRED.test(e)), ...found.filter((e) => !PREFERRED.test(e))];
}

export function scoreCandidates(candidates: Candidate[], keywords: string[]): DiscoveredSite[] {
  const index = createBm25Index(candidates.map((c, i) => ({ id: String(i), text: `${c.title}\n${c.text}` })));
  const hits = search(index, keywords.join(' '), candidates.length);
  const best = hits[0]?.score ?? 0;
  const bm25 = new Map(hits.map((h) => [Number(h.id), h.score]));
  return candidates.map((c, i) => {
    const text = `${c.title}\n${c.text}`;
    const guestHits = GUEST.filter((re) => re.test(text)).map((re) => re.exec(text)![0]);
    const g = guestHits.length >= 2 ? 1 : guestHits.length === 1 ? 0.6 : 0;
    const r = RESOURCE.test(text) ? 1 : 0;
    const links = (text.match(LINK) ?? []).length;
    const w = Math.max(1, words(c.text));
    const d = Math.min(1, ((links / w) * 100) / 5);
    const emails = contactEmails(c.text);
    const e = emails.length ? 1 : 0;
    const signals = [
      ...guestHits.map((h) => `guest post phrase: "${h.toLowerCase()}"`),
      ...(r ? ['resource page'] : []),
      `${links} outbound link(s) in ${w} words`,
      ...(e ? [`contact email: ${emails[0]}`] : []),
    ];
    return {
      website_url: c.url,
      website_title: c.title,
      contact_email: emails[0] ?? null,
      contact_emails: emails,
      guest_post_likelihood: round(0.5 * g + 0.2 * r + 0.2 * d + 0.1 * e),
      relevance_score: round(best > 0 ? (bm25.get(i) ?? 0) / best : 0),
      quality_score: round(
        0.4 * c.credibility + 0.2 * e + 0.2 * Math.min(1, w / 600) + 0.2 * (/^https:/i.test(c.url) ? 1 : 0),
      ),
      signals,
      source: c.source,
    };
  });
}

export const rankScore = (s: DiscoveredSite) =>
  0.4 * s.guest_post_likelihood + 0.4 * s.relevance_score + 0.2 * s.quality_score;
