/**
 * Keyword research activities: corpus term statistics (free), the keyword
 * vendor's ideas (a paid request: metered once under the activity's
 * idempotency key, priced from domain/pricing.ts), and the report that merges
 * them (pure). The intent classification is a generation call
 * (activities/content.ts `generate`, kind keyword_insights).
 */
import type { CorpusProvider } from '../infra/research';
import type { KeywordVendor } from '../infra/keywords/dataforseo';
import { requestCost } from '../domain/pricing';
import { corpusKeywordStats, CorpusKeywordStats } from '../domain/keywords/corpus-stats';
import type { VendorOutcome } from '../domain/keywords/report';
import { activityKey } from './tasks';
import { withHeartbeat } from './heartbeat';
import type { PostgresUsageMeter } from '../infra/quota/meter';

/** What the metered request needs from the usage meter. */
export type RequestMeter = Pick<PostgresUsageMeter, 'reserve' | 'settle' | 'release'>;

export interface KeywordActivityDeps {
  corpus: CorpusProvider;
  /** The configured keyword vendor; absent = corpus statistics only. */
  vendor?: KeywordVendor;
  meter: RequestMeter;
}

/** How to configure the keyword vendor (said in responses when it is not). */
export const KEYWORD_VENDOR_SETUP = 'set KEYWORD_VENDOR=dataforseo, DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD';

export function createKeywordActivities(deps: KeywordActivityDeps) {
  return {
    async corpusKeywordStats(a: { seeds: string[] }): Promise<CorpusKeywordStats> {
      return corpusKeywordStats(
        deps.corpus.list().map((d) => ({ slug: d.slug, title: d.title, body: d.body })),
        a.seeds,
      );
    },

    /** The vendor's ideas for the seeds, metered as one request; not configured = no call, no charge. */
    async keywordIdeas(a: {
      userId: string;
      seeds: string[];
      language?: string;
      location?: string;
    }): Promise<VendorOutcome> {
      const vendor = deps.vendor;
      if (!vendor) return { configured: false, name: null, how_to_configure: KEYWORD_VENDOR_SETUP };
      const price = requestCost(vendor.name);
      const reservation = await deps.meter.reserve({
        userId: a.userId,
        provider: vendor.name,
        estimatedTokens: 0,
        estimatedCost: price,
        idempotencyKey: activityKey(),
      });
      try {
        const ideas = await withHeartbeat(() =>
          vendor.ideas({ seeds: a.seeds, language: a.language, location: a.location }),
        );
        await deps.meter.settle(reservation, {
          provider: vendor.name,
          model: 'keywords_for_keywords',
          tokens_in: 0,
          tokens_out: 0,
          cost: price,
        });
        return { configured: true, name: vendor.name, describes: vendor.describes, ideas };
      } catch (e) {
        await deps.meter.release(reservation);
        throw e;
      }
    },
  };
}

export type KeywordActivities = ReturnType<typeof createKeywordActivities>;
