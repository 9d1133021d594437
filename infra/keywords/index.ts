/** The keyword-data port (infra/keywords/dataforseo.ts) and the vendor built from configuration. */
import type { Config } from '../config';
import { createDataForSeoVendor, KeywordVendor } from './dataforseo';

export { createDataForSeoVendor, parseDataForSeo, DATAFORSEO_PATH, MAX_SEEDS } from './dataforseo';
export type { KeywordIdea, KeywordIdeasRequest, KeywordVendor, DataForSeoSettings } from './dataforseo';

/** The configured keyword vendor, or undefined (keyword research then reports corpus statistics only). */
export function keywordVendorFromConfig(c: Config): KeywordVendor | undefined {
  if (c.KEYWORD_VENDOR !== 'dataforseo' || !c.DATAFORSEO_LOGIN || !c.DATAFORSEO_PASSWORD) return undefined;
  return createDataForSeoVendor({
    login: c.DATAFORSEO_LOGIN,
    password: c.DATAFORSEO_PASSWORD,
    baseUrl: c.DATAFORSEO_BASE_URL,
    timeoutMs: c.AI_TIMEOUT_MS,
    maxRetries: c.AI_MAX_RETRIES,
  });
}
