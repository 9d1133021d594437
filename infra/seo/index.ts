/** SEO performance data adapters: the Search Console client built from configuration, users' credential store. */
import type { Config } from '../config';
import { createSearchConsole, SearchConsole } from './search-console';

export { createSearchConsole, MAX_SYNC_ROWS, SEARCH_CONSOLE_SCOPE } from './search-console';
export type { SearchConsole, SearchConsoleSettings, SearchConsoleRowsRequest } from './search-console';
export { IntegrationCredentialStore, integrationCredentialsMigration, fingerprint } from './credentials';

/** The Search Console client when the deployment's OAuth client is configured, else undefined. */
export function searchConsoleFromConfig(c: Config): SearchConsole | undefined {
  if (!c.SEARCH_CONSOLE_CLIENT_ID || !c.SEARCH_CONSOLE_CLIENT_SECRET) return undefined;
  return createSearchConsole({
    clientId: c.SEARCH_CONSOLE_CLIENT_ID,
    clientSecret: c.SEARCH_CONSOLE_CLIENT_SECRET,
    tokenUrl: c.SEARCH_CONSOLE_TOKEN_URL,
    apiBaseUrl: c.SEARCH_CONSOLE_API_BASE_URL,
    timeoutMs: c.AI_TIMEOUT_MS,
    maxRetries: c.AI_MAX_RETRIES,
  });
}
