/**
 * What never leaves the platform, defined once: credentials, every value
 * derived from one, and encrypted blobs. The event store, the projections and
 * the encrypted tables keep what they need (a key's SHA-256 is how the key is
 * found); nothing that leaves carries it:
 * - the analysts' export and tail (scripts/events.ts) write every event with
 *   these values replaced by REDACTED (`redactSecrets`);
 * - log lines: the logger redacts these names (infra/logger.ts builds its
 *   paths from LOG_SECRET_FIELDS), the request line's URL goes through
 *   `redactUrl` (api/kernel/request-log.ts);
 * - error bodies: a refused value is echoed back (`provided_value`) except a
 *   secret's (api/kernel/validation.ts).
 * Tested end to end by test/int/api/secret-scan.int.test.ts.
 *
 * Why hashes too: a SHA-256 of a 256-bit secret cannot be reversed, but it is
 * the secret's lookup key — whoever holds the hashes can confirm a leaked or
 * guessed credential against them — and a client-chosen webhook secret (any
 * text of 16 characters) can be guessed from its fingerprint.
 */

/** What a secret value is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Field names whose value is a secret or derived from one, at any depth of
 * an event, a log object or a request field.
 */
export const SECRET_FIELDS: readonly string[] = [
  // Credentials as clients, vendors and the platform send them.
  'password',
  'secret',
  'api_key',
  'apiKey',
  'token',
  'access_token',
  'refresh_token',
  'client_secret',
  'notification_secret',
  'code_verifier',
  // What events store in their place: SHA-256 hashes (ApiKeyCreated, SessionStarted, OAuthTokenIssued,
  // OAuthClientRegistered, OAuthCodeIssued, OAuthRefreshTokenIssued, SitebuilderAuthorizationStarted), fingerprints
  // (WebhookRegistered's secret_hash, SearchConsoleConnected's token_fingerprint) and a PKCE challenge (a hash of
  // the verifier; with method `plain`, the verifier itself).
  'key_hash',
  'token_hash',
  'secret_hash',
  'code_hash',
  'state_hash',
  'token_fingerprint',
  'code_challenge',
  // Encrypted at rest (webhook_secrets, sitebuilder_tokens, integration_credentials).
  'ciphertext',
  'auth_tag',
];

/**
 * The names a log line redacts: SECRET_FIELDS and `key`. In a log object `key`
 * is a credential (an API or vendor key handed to a logger); in events it is a
 * content address (ImageStored's `<sha256>.<ext>`, also in its stream id),
 * which the export keeps.
 */
export const LOG_SECRET_FIELDS: readonly string[] = [...SECRET_FIELDS, 'key'];

const SECRET = new Set(SECRET_FIELDS);

export const isSecretField = (name: string): boolean => SECRET.has(name);

/**
 * Credential texts: those the platform hands out, `<kind>_<public id>_<secret>`
 * (api/identity/tokens.ts, api/calendar/oauth-model.ts: cp_live_, cp_test_,
 * cps_, cpo_, cpa_, cpr_, cpcs_), with a secret part of any length (a
 * truncated or mistyped key is still one) — group 1 is the kind and public id;
 * webhook signing secrets (`whsec_<base64>`, URL-encoded too, ours and the
 * billing provider's) and the billing provider's secret and restricted keys
 * (`sk_live_`, `rk_test_`, ...) — group 2 is the prefix.
 */
const CREDENTIAL_TEXT =
  /((?:cp_(?:live|test)_[A-Za-z0-9]{12}|cp(?:s|o|a|r|cs)_[A-Za-z0-9]{16})_)[A-Za-z0-9_-]+|(whsec_|(?:sk|rk)_(?:live|test)_)[A-Za-z0-9+/%]+={0,2}/g;

/**
 * `text` with every credential text in it replaced. The kind and public id of
 * a platform credential stay (`cp_live_<key_id>_[redacted]`): they are shown in
 * key listings, and tell an operator which key it was.
 */
export function redactSecretText(text: string): string {
  return text.replace(
    CREDENTIAL_TEXT,
    (_match, kindAndId: string | undefined, prefix: string | undefined) => `${kindAndId ?? prefix}${REDACTED}`,
  );
}

const plain = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * A copy of `value` (JSON-like: plain objects, arrays, scalars) with every
 * field of SECRET_FIELDS replaced by REDACTED and every credential text in a
 * string redacted; every other field is kept as it is. A field that is null
 * stays null (a public OAuth client has no secret_hash: that says nothing).
 */
export function redactSecrets<T>(value: T): T {
  return scrub(value) as T;
}

function scrub(v: unknown): unknown {
  if (typeof v === 'string') return redactSecretText(v);
  if (Array.isArray(v)) return v.map(scrub);
  if (v === null || typeof v !== 'object' || !plain(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = SECRET.has(k) && x !== null && x !== undefined ? REDACTED : scrub(x);
  return out;
}

/**
 * A request URL as it may be logged: the value of every query parameter named
 * in SECRET_FIELDS (`?api_key=...`, `?access_token=...`, `?code_challenge=...`)
 * and every credential text, in the path or the query, replaced.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return redactSecretText(redactPathTokens(url));
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq > 0 && isSecretField(decodeName(pair.slice(0, eq))) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    })
    .join('&');
  return redactSecretText(`${redactPathTokens(url.slice(0, q))}?${query}`);
}

/**
 * Path segments that are bearer tokens: an outreach unsubscribe link (`/unsubscribe/{token}`) lets whoever holds it
 * unsubscribe that recipient, so the log line keeps the route, not the token.
 */
const PATH_TOKEN = /(\/unsubscribe\/)[^/?#]+/g;
const redactPathTokens = (path: string): string => path.replace(PATH_TOKEN, `$1${REDACTED}`);

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name; // not valid percent-encoding: compared as sent
  }
}
