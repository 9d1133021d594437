/**
 * Configuration variables of keyword research and SEO performance data
 * (infra/keywords/, infra/seo/; docs/content.md): the keyword-data vendor and
 * the Search Console OAuth client.
 * Part of CONFIG_VARS (infra/config/index.ts).
 */
import type { VarSpec } from './spec';

export const SEO_VARS = {
  KEYWORD_VENDOR: {
    type: 'string',
    default: '',
    description:
      'Keyword-data vendor of keyword research: dataforseo (Google Ads keyword planner data); empty = research-corpus statistics only',
    schema: { enum: ['', 'dataforseo'] },
  },
  DATAFORSEO_LOGIN: { type: 'string', default: '', description: 'DataForSEO API login (Basic auth user)' },
  DATAFORSEO_PASSWORD: { type: 'string', default: '', description: 'DataForSEO API password (Basic auth password)' },
  DATAFORSEO_BASE_URL: {
    type: 'string',
    default: '',
    description: 'Base URL of the DataForSEO API; empty = https://api.dataforseo.com',
    schema: { pattern: '^(|https?://.+)$' },
  },
  SEARCH_CONSOLE_CLIENT_ID: {
    type: 'string',
    default: '',
    description:
      'OAuth client id (Google Cloud, scope webmasters.readonly) users connect Search Console with; empty = Search Console sync not available (import still is)',
  },
  SEARCH_CONSOLE_CLIENT_SECRET: {
    type: 'string',
    default: '',
    description: 'OAuth client secret of SEARCH_CONSOLE_CLIENT_ID',
  },
  SEARCH_CONSOLE_TOKEN_URL: {
    type: 'string',
    default: '',
    description: 'OAuth token endpoint; empty = https://oauth2.googleapis.com/token',
    schema: { pattern: '^(|https?://.+)$' },
  },
  SEARCH_CONSOLE_API_BASE_URL: {
    type: 'string',
    default: '',
    description: 'Search Console API base URL; empty = https://www.googleapis.com',
    schema: { pattern: '^(|https?://.+)$' },
  },
} as const satisfies Record<string, VarSpec>;
