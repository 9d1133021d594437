/**
 * What a platform process checks of its configuration before it starts, beyond each variable's own schema
 * (infra/config/): the keys at rest that production requires (WEBHOOK_SECRET_KEY, SITEBUILDER_TOKEN_KEY when the
 * site builder is configured), the unsubscribe secret and HTTPS links when outreach can send, and a public base URL
 * a client can reach (not a wildcard listen address such as 0.0.0.0, which would be written into the document's
 * server URL, canonical links and research source URLs). The API and the worker run it at start and refuse to start
 * with every problem named; the compose test runs it on each compose service's environment
 * (test/int/foundation/compose.int.test.ts).
 */
import type { Config } from './config';
import { mailIdentity } from './outreach';
import { sitebuilderSettings } from './sitebuilder/settings';
import { webhookSecretKey } from './webhooks/secret-key';

/** Listen addresses that mean "every interface": never an address a client can use. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', '']);

/** The problems of `c` that stop a process from starting (empty: it may start). */
export function startupProblems(c: Config): string[] {
  const problems: string[] = [];
  const check = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      problems.push((e as Error).message);
    }
  };
  check(() => webhookSecretKey(c));
  check(() => sitebuilderSettings(c));
  check(() => mailIdentity(c));
  if (c.NODE_ENV === 'production' && !c.PUBLIC_BASE_URL && WILDCARD_HOSTS.has(c.HOST))
    problems.push(
      `Invalid configuration: PUBLIC_BASE_URL must be set in production when HOST is ${c.HOST || 'empty'} (a listen address, not one clients can reach: it would appear in the OpenAPI document's server URL, canonical links and research source URLs)`,
    );
  return problems;
}

/** Throws one error naming every startup problem of `c`. */
export function assertStartable(c: Config): void {
  const problems = startupProblems(c);
  if (problems.length) throw new Error(problems.join('\n'));
}
