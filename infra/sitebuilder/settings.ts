/**
 * Site-builder settings of a process, read once from the configuration
 * (docs/sitebuilder.md, docs/configuration.md). `configured` is false until
 * the client id and the endpoints are set; routes then answer 503 naming the
 * variables, and activities fail with VENDOR_NOT_CONFIGURED.
 */
import path from 'node:path';
import { hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from '../config';
import { projectRoot } from '../paths';
import { configuredKey } from '../webhooks/secret-key';
import { AllowEntry, parseAllowList, SsrfOptions } from '../webhooks/ssrf';

export const DEV_TOKEN_KEY_FILE = path.join(projectRoot(), '.run/sitebuilder-token.key');

/** What the OAuth client and the REST adapter are built from. */
export interface SitebuilderEndpoints {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** Empty: the builder has no revocation endpoint. */
  revokeUrl: string;
  apiBaseUrl: string;
  redirectUri: string;
  scopes: string[];
  timeoutMs: number;
}

export interface SitebuilderSettings extends SitebuilderEndpoints {
  /** Variables still to set before site publishing works (empty when configured). */
  missing: string[];
  /** 32-byte key of the tokens at rest (derived from SITEBUILDER_TOKEN_KEY). */
  tokenKey: Buffer;
  /** 32-byte key the PKCE verifiers are derived with (derived from SITEBUILDER_TOKEN_KEY). */
  pkceKey: Buffer;
  stateTtlSeconds: number;
  refreshMarginSeconds: number;
  mediaMaxBytes: number;
  /** SSRF allow-list of cover image hosts. */
  mediaAllow: AllowEntry[];
}

/** Two independent keys from the one configured key (HKDF-SHA256), so a verifier never reveals the token key. */
export function deriveKeys(master: Buffer): { tokenKey: Buffer; pkceKey: Buffer } {
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, 32));
  return { tokenKey: derive('sitebuilder tokens v1'), pkceKey: derive('sitebuilder pkce v1') };
}

export function sitebuilderSettings(c: Config, keyFile = DEV_TOKEN_KEY_FILE): SitebuilderSettings {
  const required: [string, string][] = [
    ['SITEBUILDER_CLIENT_ID', c.SITEBUILDER_CLIENT_ID],
    ['SITEBUILDER_CLIENT_SECRET', c.SITEBUILDER_CLIENT_SECRET],
    ['SITEBUILDER_AUTHORIZE_URL', c.SITEBUILDER_AUTHORIZE_URL],
    ['SITEBUILDER_TOKEN_URL', c.SITEBUILDER_TOKEN_URL],
    ['SITEBUILDER_API_BASE_URL', c.SITEBUILDER_API_BASE_URL],
    ['SITEBUILDER_REDIRECT_URI', c.SITEBUILDER_REDIRECT_URI],
  ];
  // Without a client id nothing is ever encrypted: a production process that does not publish to a site needs no key.
  const master =
    !c.SITEBUILDER_TOKEN_KEY && !c.SITEBUILDER_CLIENT_ID && c.NODE_ENV === 'production'
      ? randomBytes(32)
      : configuredKey(c.SITEBUILDER_TOKEN_KEY, 'SITEBUILDER_TOKEN_KEY', c.NODE_ENV, keyFile);
  return {
    clientId: c.SITEBUILDER_CLIENT_ID,
    clientSecret: c.SITEBUILDER_CLIENT_SECRET,
    authorizeUrl: c.SITEBUILDER_AUTHORIZE_URL,
    tokenUrl: c.SITEBUILDER_TOKEN_URL,
    revokeUrl: c.SITEBUILDER_REVOKE_URL,
    apiBaseUrl: c.SITEBUILDER_API_BASE_URL.replace(/\/+$/, ''),
    redirectUri: c.SITEBUILDER_REDIRECT_URI,
    scopes: c.SITEBUILDER_SCOPES.split(/\s+/).filter(Boolean),
    timeoutMs: c.SITEBUILDER_TIMEOUT_MS,
    missing: required.filter(([, v]) => !v).map(([k]) => k),
    ...deriveKeys(master),
    stateTtlSeconds: c.SITEBUILDER_STATE_TTL_SECONDS,
    refreshMarginSeconds: c.SITEBUILDER_REFRESH_MARGIN_SECONDS,
    mediaMaxBytes: c.SITEBUILDER_MEDIA_MAX_BYTES,
    mediaAllow: parseAllowList(c.SITEBUILDER_MEDIA_ALLOW_PRIVATE_HOSTS),
  };
}

/** What the API needs: the authorization URL's parts, the PKCE key, the state lifetime and the cover URL rules. */
export interface SitebuilderApiSettings {
  missing: string[];
  authorizeUrl: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  pkceKey: Buffer;
  stateTtlSeconds: number;
  mediaSsrf: SsrfOptions;
}

export const apiSettingsOf = (s: SitebuilderSettings): SitebuilderApiSettings => ({
  missing: s.missing,
  authorizeUrl: s.authorizeUrl,
  clientId: s.clientId,
  redirectUri: s.redirectUri,
  scopes: s.scopes,
  pkceKey: s.pkceKey,
  stateTtlSeconds: s.stateTtlSeconds,
  mediaSsrf: { allow: s.mediaAllow },
});
